/**
 * A Parquet file holds at least its start magic, a footer length and its end magic (`PAR1`, 4
 * bytes, `PAR1`). An emptied file (a disk that lost it, a restore cut short) was said in the
 * readers' own words, "Empty input provided or not a Uint8Array." or "Offset is outside the
 * bounds of the DataView", which read as quotelake's own failure: checked first, it is said as one.
 */
const SHORTEST = 4 + 4 + 4;

/** Throws when `size` bytes cannot be a Parquet file. */
export function assertParquetSize(size: number): void {
  if (size < SHORTEST) throw new Error(`not a Parquet file: ${size} bytes, fewer than any holds (cut short?)`);
}
