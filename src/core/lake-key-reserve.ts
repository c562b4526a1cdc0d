/**
 * The longest object key a lake writes under its prefix, in UTF-8 bytes, so that an s3:// prefix
 * too long for it is refused before any request instead of failing at its first write (S3 caps a
 * whole key at 1024 bytes, and running the same command again fails the same way). Each line is
 * the longest form of one kind of key; test/lake/lake-key-reserve.test.ts holds them to the lake's
 * own key builders, so a new or longer key cannot slip past this bound.
 */
import { HIVE_NULL } from './hive-null.js';

/** A pipeline's name names its checkpoint file (`_quotelake/state/checkpoints/<name>.json`). */
export const MAX_PIPELINE_NAME_CHARS = 200;

/** A checkpoint file's name in its state folder (runtime/checkpoint-store.ts writes it there), set by the pipeline's name. */
export function checkpointStateFile(pipeline: string): string {
  return `checkpoints/${pipeline}.json`;
}

/** The lake key of a pipeline's checkpoint file: the one key whose length a pipeline's name sets. */
export function checkpointLakeKey(pipeline: string): string {
  return `_quotelake/state/${checkpointStateFile(pipeline)}`;
}

/** A run id (`20261122T004000Z-k3f9qa`): in staging folders and file names, always of this length. */
export const SAMPLE_RUN_ID = '20261122T004000Z-k3f9qa';
const RUN = SAMPLE_RUN_ID;
/** A maintenance command's id (compact, vacuum, repair: runtime/run-id.ts), longer than a run's; a compaction stages its files under it as a run does. */
export const SAMPLE_MAINTENANCE_ID = 'compact-20261122T004000000Z-a1b2c3';
const MAINTENANCE = SAMPLE_MAINTENANCE_ID;
/** A file's sequence number, padded to 5 digits and free to grow: 10 digits is a run of 10^10 files. */
const SEQ = '9999999999';

/** The longest key of each kind but a checkpoint's (checked per pipeline, with its name). */
export const LONGEST_LAKE_KEYS: readonly string[] = [
  `_quotelake/staging/${MAINTENANCE}/kline-parquet/interval=1mo/year=2026/date=${HIVE_NULL}/part-${MAINTENANCE}-${SEQ}.parquet`,
  `_quotelake/staging/${RUN}/kline-parquet/interval=1mo/year=2026/date=${HIVE_NULL}/part-${RUN}-${SEQ}.parquet`,
  `_quotelake/staging/${RUN}/_rejected/kline/date=2026-11-22/rejected-${RUN}.ndjson.${SEQ}`,
  `_quotelake/staging/${RUN}/kline.parquet.journal.json`,
  `_quotelake/state/runs/${RUN}.json`,
  `_quotelake/probe/write-${RUN}`,
  `kline/_delta_log/99999999999999999999.checkpoint.parquet`,
];

/** Bytes the lake's own keys take after the prefix (its trailing `/` not counted), checkpoints aside. */
export const LAKE_KEY_RESERVE_BYTES = Math.max(...LONGEST_LAKE_KEYS.map((key) => Buffer.byteLength(key, 'utf8')));

/** The longest names in a state folder but a checkpoint's: run records and the quota's (a 16-hex token hash). */
export const LONGEST_STATE_FILES: readonly string[] = [`runs/${RUN}.json`, `quota/${'f'.repeat(16)}.sends.json`];

/**
 * What a local atomic write adds to a file's name for its temp file, `.<name>.tmp-<pid>-<8 hex>`:
 * a pid of up to 7 digits (Linux's pid_max is at most 2^22). An object store writes no temp file.
 */
export const LOCAL_TEMP_BYTES = '.'.length + '.tmp-'.length + 7 + '-'.length + 8;
