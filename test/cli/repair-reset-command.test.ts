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
  logMismatches: [],
};

describe('the reset command repair prints', () => {
  it('names the output, the endpoint it was given, and every series dropped', () => {
    expect(resetCommand(repaired, 's3://lake/r1', 'http://127.0.0.1:9000')).toBe("quotelake state reset --output s3://lake/r1 --s3-endpoint http://127.0.0.1:9000 --stream kline/BTCUSDT/1m --yes");
    expect(resetCommand(repaired, '/data/lake')).toBe("quotelake state reset --output /data/lake --stream kline/BTCUSDT/1m --yes");
    expect(formatRepair(repaired, true, 's3://lake/r1', 'http://127.0.0.1:9000')).toContain('to fetch their rows again: quotelake state reset --output s3://lake/r1 --s3-endpoint http://127.0.0.1:9000 ');
  });
});

describe('what repair says of a Delta log that disagrees with the manifest', () => {
  it('names each file and what it is, and what the next run does', () => {
    const drifted: TableRepair = {
      ...repaired,
      dropped: [],
      logMismatches: [
        { key: 'kline/interval=1m/year=2026/date=2026-11-19/part-r1-00001.parquet', problem: 'in the manifest, removed from the Delta log' },
        { key: 'kline/interval=1m/year=2026/date=2026-11-19/part-r2-00001.parquet', problem: 'live in the Delta log, missing from storage' },
      ],
    };
    expect(formatRepair(drifted, true, '/data/lake')).toBe(
      [
        'kline.parquet (Delta): all 3 live files read',
        'kline.parquet (Delta): the Delta log and the manifest disagree on 2 files (a commit stranded half-way); the log would be made to agree with the manifest:',
        '  kline/interval=1m/year=2026/date=2026-11-19/part-r1-00001.parquet: in the manifest, removed from the Delta log',
        '  kline/interval=1m/year=2026/date=2026-11-19/part-r2-00001.parquet: live in the Delta log, missing from storage',
        "  rows only the log had were never committed for quotelake: the pipeline's next run fetches them",
        '',
      ].join('\n'),
    );
  });
});
