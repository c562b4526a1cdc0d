/**
 * A Delta table read by globs only: the README tells its user to vacuum after each job with a short
 * retention so the glob sees each row once. A retention counts from each file's removal, so one of
 * an hour keeps the files the job just replaced (the glob still counts their rows twice); only a
 * retention shorter than the time since the job, `--retention 0h --force`, deletes them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duck } from '../sinks/helpers.js';
import { runCli, tempDir } from './helpers/cli.js';

const glob = (lake: string): Promise<{ n: number; keys: number }[]> =>
  duck(`SELECT count(*)::INT AS n, count(DISTINCT (code, interval, ts))::INT AS keys FROM read_parquet('${lake}/kline/*=*/**/*.parquet', hive_partitioning = true)`) as Promise<{ n: number; keys: number }[]>;

describe('vacuum for glob readers of a Delta table', () => {
  it('--retention 1h right after a merging job keeps the replaced files; --retention 0h --force deletes them', async () => {
    const lake = join(tempDir('ql-vacuum-glob-'), 'output');
    for (const clock of ['2026-11-20T12:00:00Z', '2026-11-20T12:05:00Z']) {
      const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--table', 'delta', '--output', lake, '--clock', clock, '-q']);
      expect(r.code, r.stderr).toBe(0);
    }
    const [before] = await glob(lake);
    expect(before!.n).toBeGreaterThan(before!.keys);

    const hour = await runCli(['vacuum', '--output', lake, '--retention', '1h', '--force', '--clock', '2026-11-20T12:06:00Z']);
    expect(hour.code, hour.stderr).toBe(0);
    expect(hour.stdout).toMatch(/kline: Delta version 1: deleted 0 unreferenced files; kept \d+ younger than the retention/);
    expect(await glob(lake)).toEqual([before]);

    const now = await runCli(['vacuum', '--output', lake, '--retention', '0h', '--force', '--clock', '2026-11-20T12:06:00Z']);
    expect(now.code, now.stderr).toBe(0);
    const [after] = await glob(lake);
    expect(after).toEqual({ n: before!.keys, keys: before!.keys });
  }, 60_000);
});
