/** What a data file's footer says about it, the same shape for Parquet and Arrow IPC. */

/** A statistic as read: numbers (timestamps as epoch ms), text or booleans; decimals are never given as a JS number. */
export type StatValue = number | string | boolean;

export interface ColumnStats {
  readonly min?: StatValue;
  readonly max?: StatValue;
  readonly nullCount?: number;
}

export interface FooterColumn {
  readonly name: string;
  /** e.g. `STRING`, `TIMESTAMP(MILLIS)`, `DECIMAL(38,18)`, `BOOLEAN` (Parquet) or the Arrow type's name. */
  readonly type: string;
}

export interface FileFooter {
  readonly rows: number;
  readonly bytes: number;
  /** The file's key-value metadata (Parquet) or schema metadata (Arrow IPC). */
  readonly metadata: Readonly<Record<string, string>>;
  readonly columns: readonly FooterColumn[];
  /**
   * Per column, over the whole file: min/max/null count from the Parquet column-chunk statistics.
   * Empty for Arrow IPC (the format keeps none) and for columns written without statistics;
   * decimal columns give only their null count (their min/max would pass through a double).
   */
  readonly statistics: Readonly<Record<string, ColumnStats>>;
}
