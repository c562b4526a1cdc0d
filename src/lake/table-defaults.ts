/**
 * The Parquet and Arrow sinks' defaults, in one place: the sinks' config schema takes them, and so
 * does `quotelake compact`, which works on a lake these defaults wrote unless a pipeline said
 * otherwise.
 */
export const TABLE_DEFAULTS = {
  maxRowsPerFile: 1_000_000,
  maxBufferedRows: 65_536,
  maxBufferedBytes: 48 * 1024 * 1024,
  /** Parquet only. */
  rowGroupRows: 131_072,
  /** How long a replaced file stays on disk after the manifest stops listing it. */
  retiredGraceMs: 300_000,
} as const;
