/**
 * A --state-dir inside the lake's own places: under _quotelake/staging the next run's recovery
 * emptied it, so every run lost its checkpoints and today's quota count and fetched everything
 * again (exit 0 each time); inside a dataset folder its JSON files sat among the data files that
 * pyarrow, Spark or polars read as Parquet. Both are refused before any request, for run and plan;
 * _quotelake/state (an S3 lake's place for it) still keeps state across runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const RUN = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--clock', '2026-11-20T12:00:00Z', '--json'];

interface RunDoc {
  runs: { requestsTotal: number; rows: Record<string, { written?: number; merged?: number }>; error?: { code: string; message: string; hint: string } }[];
}

describe('a state folder inside the lake', () => {
  it.each([
    ['_quotelake/staging/state', 'is under _quotelake, whose files the runs rewrite and delete (its staging folder is emptied at every run\'s start)'],
    ['kline/state', "is in the kline dataset's folder, which holds the lake's data files only"],
  ])('%s is exit 2 before any request, and nothing is made', async (inside, why) => {
    const out = join(tempDir('ql-state-in-lake-'), 'lake');
    const stateDir = join(out, inside);
    const r = await runCli([...RUN, '--output', out, '--state-dir', stateDir]);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as RunDoc;
    expect(doc.runs[0]!.requestsTotal).toBe(0);
    expect(doc.runs[0]!.error).toMatchObject({
      code: 'QL_CONFIG',
      message: `state dir ${stateDir} ${why}`,
      hint: 'give a state folder outside the dataset folders and _quotelake/ (default <output>/.state); nothing was sent or written',
    });
    expect(existsSync(out)).toBe(false);

    const plan = await runCli(['plan', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--clock', '2026-11-20T12:00:00Z', '--output', out, '--state-dir', stateDir]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stderr).toContain(`state dir ${stateDir} ${why}`);
  }, 60_000);

  it('_quotelake/state keeps the checkpoints: the second run fetches only what is new', async () => {
    const out = join(tempDir('ql-state-in-lake-'), 'lake');
    const args = [...RUN, '--output', out, '--state-dir', join(out, '_quotelake/state')];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as RunDoc).runs[0]!.rows['kline']!.written).toBe(124);
    const second = await runCli(args);
    expect(second.code, second.stderr).toBe(0);
    const again = (JSON.parse(second.stdout) as RunDoc).runs[0]!;
    expect(again.rows['kline']!.written).toBe(0);
    expect(again.rows['kline']!.merged).toBeLessThan(10);
    expect(existsSync(join(out, '_quotelake/state/checkpoints/kline-backfill.json'))).toBe(true);
  }, 60_000);
});
