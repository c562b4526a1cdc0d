/**
 * The provenance every data file carries in its key-value metadata (Parquet footer, Arrow schema),
 * written fresh, merged or compacted: which quotelake (version and build) wrote it, in which run,
 * under which layout and schema, for which dataset. A merged or compacted file is written by the
 * merging run, so it carries that run's provenance; only what describes the rows (the source
 * endpoints, `quotelake.series`) is united from the files it replaces (file-compaction.ts).
 */
import type { Dataset } from '../core/records.js';
import { SCHEMA_VERSION } from '../core/schemas.js';
import { buildId } from './build-id.js';
import { LAYOUT_VERSION } from './layout-version.js';
import { PACKAGE_VERSION } from './package-version.js';

/** Parquet's footer field, also written as a key so Arrow files and key-value readers see it. */
export const CREATED_BY_KEY = 'created_by';
export const RUN_ID_KEY = 'quotelake.run_id';

/** `quotelake version 0.2.0 (build 1a2b3c4d5e6f)`. */
export function createdBy(): string {
  return `quotelake version ${PACKAGE_VERSION} (build ${buildId()})`;
}

/** The keys of the run that writes the file, in the order they are written. */
export function fileProvenance(dataset: Dataset, runId: string): Map<string, string> {
  return new Map([
    [CREATED_BY_KEY, createdBy()],
    ['quotelake.version', PACKAGE_VERSION],
    [RUN_ID_KEY, runId],
    ['quotelake.layout_version', String(LAYOUT_VERSION)],
    ['quotelake.schema_version', SCHEMA_VERSION],
    ['quotelake.dataset', dataset],
  ]);
}

/** The keys that only the writing run decides (they never come from the files a merge replaces). */
export const PROVENANCE_KEYS: ReadonlySet<string> = new Set([
  CREATED_BY_KEY,
  'quotelake.version',
  RUN_ID_KEY,
  'quotelake.layout_version',
  'quotelake.schema_version',
  'quotelake.dataset',
]);
