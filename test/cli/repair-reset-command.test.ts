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
  logLost: false,
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

describe('what repair says comes back after the reset', () => {
  it('K-lines: as far back as the pipeline\'s since reaches (a span counts back from the run)', () => {
    expect(formatRepair(repaired, true, '/data/lake')).toContain(
      "then run the pipelines (forex, metals and crypto come back whole as far back as each pipeline's since reaches: a span such as 7d counts back from the run, so give --since an ISO date before the dropped rows if it does not; a stock or index only as far as its newest 500 bars reach)",
    );
  });

  it('halts: the service gives the last year of announcements, not the stocks\' words', () => {
    const halts: TableRepair = {
      ...repaired,
      dataset: 'halt',
      delta: false,
      dropped: [{ key: 'halt/exchange=nyse/year=2026/part-a.parquet', problem: 'missing', rows: 506, series: ['nyse'] }],
    };
    const text = formatRepair(halts, true, '/data/lake');
    expect(text).toContain('  halt/exchange=nyse/year=2026/part-a.parquet: missing; 506 rows of nyse\n');
    expect(text).toContain('--stream halt/nyse --yes (every pipeline holding them; add --state-dir if its runs keep their state elsewhere), then run the pipelines (the service gives the last year of halts: older announcements do not come back)\n');
  });
});
