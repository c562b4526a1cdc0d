/**
 * A checkpoint file damaged by hand or by another tool, through the built CLI: exit 2 before any
 * request, with a hint about that file (restore it, or remove it with a state reset and fetch again), not about the pipeline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const ARGS = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', '2026-11-20T00:00:00Z', '--json'];

describe('a damaged checkpoint file', () => {
  it.each([
    ['not JSON', '{"streams', /checkpoint file is not valid JSON/],
    ['JSON without streams', '{}', /checkpoint file has no streams object/],
  ])('%s: exit 2, no request, the hint names the file and what to do', async (_what, text, message) => {
    const output = tempDir();
    const file = join(output, '.state', 'checkpoints', 'kline-backfill.json');
    mkdirSync(join(output, '.state', 'checkpoints'), { recursive: true });
    writeFileSync(file, text);
    const r = await runCli([...ARGS, '--output', output]);
    expect(r.code, r.stderr).toBe(2);
    const run = (JSON.parse(r.stdout) as { runs: { requestsTotal: number; error: { message: string; hint: string } }[] }).runs[0]!;
    expect(run.requestsTotal).toBe(0);
    expect(run.error.message).toMatch(message);
    expect(run.error.message.startsWith(`${file}: `)).toBe(true);
    expect(run.error.hint).toMatch(/^the checkpoints of pipeline "kline-backfill" are damaged \(changed outside quotelake\): restore the file from a backup, or remove it with "quotelake state reset kline-backfill /);
    expect(r.stderr).not.toContain('fix the pipeline file');
  }, 60_000);
});
