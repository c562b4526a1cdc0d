/**
 * A slice whose worker is lost (SIGKILL) is passed on to the next worker twice; the third loss
 * fails it, with a line saying so in words and what to do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const CODES = '[BTCUSDT, ETHUSDT, SOLUSDT, DOGEUSDT, SHIBUSDT, PEPEUSDT, WLDUSDT, TONUSDT]';

describe('a slice whose worker is killed, again and again', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('is run again after the first and second loss, and fails at the third', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = join(tempDir('ql-stalls-p-'), 'stalls.yaml');
    // Eight codes of 1m bars: one slice of 24 requests, over a second at the plan's rate.
    writeFileSync(file, ['name: stalls', 'source:', '  type: kline-history', `  codes: ${CODES}`, '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
    const made = await runCli(['enqueue', file, '--since', '2026-11-16T00:00:00Z', '--until', '2026-11-16T23:59:00Z', '--output', tempDir(), '--clock', CLOCK], { env });
    expect(made.stdout).toContain('1 slices');
    const status = async () => JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    for (let loss = 1; loss <= 3; loss++) {
      const worker = startCli(['worker', '--concurrency', '1', '--stalled-timeout', '1', '--clock', CLOCK, '--log-level', 'info'], { env });
      await worker.waitForStderr(/slice started/);
      worker.child.kill('SIGKILL');
      await worker.result;
    }
    // The third loss is found by the next worker's stalled check: the slice fails, and the batch says so.
    const last = await runCli(['worker', '--until-empty', '--stalled-timeout', '1', '--clock', CLOCK], { env });
    expect(last.code).toBe(1);
    expect(last.stderr).toMatch(/slice slice-\w+ failed for good \(attempt 1 of 5\): the worker running it was lost \(killed, or stopped answering for --stalled-timeout\) 3 times; enqueue the same run again to retry it/);
    expect(await status()).toMatchObject({ waiting: 0, active: 0, failed: 1 });
  }, 60_000);
});
