/**
 * `run --output lake/kline` (a dataset's folder given for the lake) wrote a second lake inside the
 * first one's kline folder, exit 0: its `kline/kline/...` files were read by a glob of the first
 * lake as more K-lines, beside its own `_quotelake/` and `.state/`. run and plan refuse it now,
 * before any request (exit 2, naming the lake); a folder of the user's beside the datasets is allowed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const RUN = ['kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--clock', '2026-11-20T12:00:00Z'];

describe('an output inside a lake', () => {
  it("is exit 2 before any request in a dataset's folder, for run and plan; beside the datasets it runs", async () => {
    const lake = join(tempDir('ql-output-in-lake-'), 'lake');
    const first = await runCli(['run', ...RUN, '--output', lake, '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const table = join(lake, 'kline');
    const before = readdirSync(table).sort();
    const refusal = [
      `quotelake: output ${table} is inside the lake ${lake}, in the kline dataset's folder: a run there would write a second lake among its files`,
      `  hint: give the lake's folder (--output ${lake}) or a folder outside it; nothing was sent or written`,
    ];
    const run = await runCli(['run', ...RUN, '--output', table, '--json']);
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as { runs: { requestsTotal: number; error: { code: string } }[] };
    expect([doc.runs[0]!.requestsTotal, doc.runs[0]!.error.code]).toEqual([0, 'QL_CONFIG']);
    const plan = await runCli(['plan', ...RUN, '--output', table]);
    expect([plan.code, plan.stderr.split('\n').slice(0, 2)]).toEqual([2, refusal]);
    expect(readdirSync(table).sort()).toEqual(before);
    const beside = await runCli(['run', ...RUN, '--output', join(lake, 'exports'), '--quiet']);
    expect(beside.code, beside.stderr).toBe(0);
  }, 90_000);
});
