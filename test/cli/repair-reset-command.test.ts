/**
 * The `state reset` a repair prints to paste as it is: the same output and, when repair was given
 * one, the same S3 endpoint (without it the pasted command looked at another store, found nothing,
 * and said "nothing to reset", so the dropped rows were never fetched again).
 */
import { describe, expect, it } from 'vitest';
import { formatRepair, resetCommand } from '../../src/cli/actions/repair.js';
import type { TableRepair } from '../../src/lake/repair-lake.js';

const repaired: TableRepair = {
  dataset: 'kline',
  format: 'parquet',
  delta: true,
  files: 3,
  dropped: [{ key: 'kline/interval=1m/year=2026/date=2026-11-19/part-a.parquet', problem: 'not a Parquet file', rows: 1440, series: ['BTCUSDT'] }],
};

describe('the reset command repair prints', () => {
  it('names the output, the endpoint it was given, and every series dropped', () => {
    expect(resetCommand(repaired, 's3://lake/r1', 'http://127.0.0.1:9000')).toBe("quotelake state reset --output s3://lake/r1 --s3-endpoint http://127.0.0.1:9000 --stream kline/BTCUSDT/1m --yes");
    expect(resetCommand(repaired, '/data/lake')).toBe("quotelake state reset --output /data/lake --stream kline/BTCUSDT/1m --yes");
    expect(formatRepair(repaired, true, 's3://lake/r1', 'http://127.0.0.1:9000')).toContain('to fetch their rows again: quotelake state reset --output s3://lake/r1 --s3-endpoint http://127.0.0.1:9000 ');
  });
});
