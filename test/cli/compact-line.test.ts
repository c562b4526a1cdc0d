/**
 * The line `quotelake compact` prints per dataset: its sizes are in the run summary's units
 * (B, KiB, MiB, GiB) and its counts grouped by thousands (12,000 rows), so the two read alike.
 */
import { describe, expect, it } from 'vitest';
import { formatCompaction } from '../../src/cli/actions/compact.js';
import type { CompactionReport } from '../../src/lake/commit/partitioned-sink.js';

const report = (over: Partial<CompactionReport> = {}): CompactionReport => ({
  dataset: 'kline',
  format: 'parquet',
  partitions: 3,
  compactedPartitions: 2,
  filesBefore: 40,
  filesAfter: 3,
  rows: 12_000,
  bytesBefore: 3 * 1024 * 1024 + 512 * 1024,
  bytesAfter: 23_245,
  purged: 1,
  stopped: false,
  ...over,
});

describe('formatCompaction', () => {
  it('gives the sizes in binary units and the counts grouped by thousands, as the run summary does', () => {
    expect(formatCompaction(report(), false)).toBe(
      'kline.parquet: 40 → 3 files, 12,000 rows in 3 partitions (compacted 2); 3.5 MiB → 22.7 KiB; deleted 1 retired file past the grace',
    );
  });

  it('a dry run marks the size after as an estimate; bytes below a KiB stay bytes', () => {
    expect(formatCompaction(report({ bytesBefore: 900, bytesAfter: 850, purged: 0 }), true)).toBe(
      'kline.parquet: 40 → 3 files, 12,000 rows in 3 partitions (would compact 2); 900 B → ~850 B; would delete 0 retired files past the grace',
    );
  });
});
