/**
 * A failed slice of the newest partition, cut at an earlier "now", is covered by the longer slice
 * the same run enqueued again cuts: through the built CLI with a real redis-server, the built-in
 * emulator of each process on a frozen clock. The failed one is removed (never retried, it would
 * otherwise stay counted as not done for 30 days), so `queue status` ends clean.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const FIRST = '2026-11-20T12:00:00Z';
const LATER = '2026-11-20T13:00:00Z';

function pipelineFile(): string {
  const file = join(tempDir('ql-supersede-p-'), 'newest.yaml');
  writeFileSync(file, ['name: newest', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  return file;
}

describe('enqueueing a run again after its newest slice failed', () => {
  const redis = useRedisServer({ settled: ['demo-professional', 'demo-all-us'] });

  it('replaces the failed newest slice by the longer one: status ends with nothing failed and nothing left', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile();
    const output = tempDir();
    const enqueue = (clock: string) => runCli(['enqueue', file, '--since', '2026-11-19T00:00:00Z', '--clock', clock, '--output', output, '--json'], { env });
    const status = async () => JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as { failed: number; completed: number; waiting: number; eta: { requestsLeft: number } };

    const first = await enqueue(FIRST);
    expect(first.code, first.stderr).toBe(0);
    // The 19th, and the 20th up to 12:00.
    expect(JSON.parse(first.stdout)).toMatchObject({ slices: 2, added: 2 });
    // A US-only plan: the service refuses BTCUSDT (604), which no retry mends.
    const failing = await runCli(['worker', '--until-empty', '--clock', FIRST, '--plan', 'all-us'], { env });
    expect(failing.code, failing.stderr).toBe(1);
    expect(await status()).toMatchObject({ failed: 2, waiting: 0 });

    // An hour later the 19th's slice is the same (retried); the 20th's ends at 13:00, a new id.
    const again = await enqueue(LATER);
    expect(again.code, again.stderr).toBe(0);
    expect(await status()).toMatchObject({ failed: 0, waiting: 2 });
    expect(JSON.parse(again.stdout)).toMatchObject({ slices: 2, added: 1, retried: 1, superseded: 1 });

    const good = await runCli(['worker', '--until-empty', '--clock', LATER], { env });
    expect(good.code, good.stderr).toBe(0);
    expect(await status()).toMatchObject({ failed: 0, waiting: 0, completed: 2, eta: { requestsLeft: 0 } });
    expect((await runCli(['queue', 'status'], { env })).stdout).toBe('waiting 0, active 0, completed 2, failed 0\nnothing to run\n');
  }, 90_000);

  it('says so in the text form', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile();
    const output = tempDir();
    const enqueue = (clock: string, json: string[] = []) => runCli(['enqueue', file, '--since', '2026-11-20T00:00:00Z', '--clock', clock, '--output', output, ...json], { env });
    expect((await enqueue(FIRST, ['--json'])).code).toBe(0);
    const failing = await runCli(['worker', '--until-empty', '--clock', FIRST, '--plan', 'all-us'], { env });
    expect(failing.code, failing.stderr).toBe(1);
    const again = await enqueue(LATER);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('newest: 1 slices (1 requests planned): 1 new, 0 already queued, 0 already done, 1 failed ones of a shorter range replaced\n');
  }, 90_000);
});
