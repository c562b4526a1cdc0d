/**
 * The versions of a commit journal and the steps between them (read through core/version-steps.ts).
 * 1: quotelake 0.1.0, `remove`: files deleted by the commit. 2: `retire`: the same files, listed as
 * retired in the manifest (v2) rather than deleted at once; its manifest is a version-2 manifest.
 */
import type { VersionChain } from '../../core/version-steps.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { MANIFEST_VERSIONS } from './manifest-versions.js';

export function journalVersions(file: string): VersionChain {
  return {
    what: 'commit journal',
    newest: 2,
    steps: {
      1: ({ remove, manifest, ...rest }) => ({ ...rest, retire: remove ?? [], manifest: upgradeToNewest(manifest, MANIFEST_VERSIONS, `${file} (its manifest)`) }),
    },
  };
}
