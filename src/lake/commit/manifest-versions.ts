/**
 * The versions of a manifest and the steps between them (read through core/version-steps.ts).
 * 1: quotelake 0.1.0. 2: + `retired`, files no longer live but kept on disk for a grace period so a
 * reader holding an older manifest can finish.
 */
import type { VersionChain } from '../../core/version-steps.js';

export type { RetiredFile } from './manifest.js';

export const MANIFEST_VERSIONS: VersionChain = {
  what: 'manifest',
  newest: 2,
  steps: {
    // Nothing was retired before retirement existed: 0.1.0 deleted replaced files at once.
    1: (v1) => ({ ...v1, retired: [] }),
  },
};
