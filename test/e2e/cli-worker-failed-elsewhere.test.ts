/**
 * A `worker --until-empty` answers for the queue it drained, not only for its own slices: when
 * another worker failed a slice for good while it ran, it does not exit 0 (a cron job would read
 * "all done"). Through the built CLI, a real redis-server and `quotelake serve` on loopback: worker
 * B (a token whose answers come 10 s late) holds one slice while worker A, whose plan does not cover
 * the code (ret 604, which no retry mends), fails the other. The 10 s leave A time to start on a
 * busy machine: were B done first, it would take the second slice itself.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SLOW_TOKEN = 'slow-answers-token';
const HK_TOKEN = 'demo-all-hk';

describe('worker --until-empty when another worker failed a slice', () => {
  const redis = useRedisServer();
  let served: ServedEmulator;
  beforeAll(async () => {
    await settleTokens(redis().url, [SLOW_TOKEN, HK_TOKEN]);
    served = await serveChild([{ token: SLOW_TOKEN, plan: 'professional', faults: 'latency=10s@1' }], ['--clock', CLOCK]);
  });
  afterAll(async () => {
    await served.stop();
  });

  it('exits with that failure\'s code and says so, though every slice it ran itself was done', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url, QUOTELAKE_BASE_URL: served.url };
    const file = join(tempDir('ql-welse-p-'), 'two-days.yaml');
    writeFileSync(file, ['name: two-days', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
    const queued = await runCli(['enqueue', file, '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-19T00:00:00Z', '--clock', CLOCK, '--output', tempDir(), '--json'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 2, added: 2 });

    const b = startCli(['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK, '--log-level', 'info'], { env: { ...env, QUOTELAKE_TOKEN: SLOW_TOKEN, QUOTELAKE_PLAN: 'professional' } });
    await b.waitForStderr(/slice started/);
    const a = await runCli(['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK], { env: { ...env, QUOTELAKE_TOKEN: HK_TOKEN, QUOTELAKE_PLAN: 'all-hk' } });
    expect(a.code, a.stderr).toBe(1);
    expect(a.stderr).toMatch(/failed for good \(retrying cannot mend it\): .*ret 604/);
    expect(a.stderr).toContain('quotelake worker: 1 slice failed for good (the lines above say why)');

    const rb = await b.result;
    expect(rb.stderr).toMatch(/slice done: BTCUSDT 1h .*: 24 rows/);
    expect(rb.stderr).not.toContain('failed for good (');
    expect(rb.stderr).toContain('quotelake worker: 1 slice failed for good on another worker while this one ran (that worker\'s log says why); "quotelake queue status" counts them');
    expect(rb.code, rb.stderr).toBe(1);
    const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    expect(status).toMatchObject({ waiting: 0, active: 0, completed: 1, failed: 1 });

    // A later batch on the same queue answers for its own time: the old failure is not its.
    const later = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env: { ...env, QUOTELAKE_TOKEN: SLOW_TOKEN, QUOTELAKE_PLAN: 'professional' } });
    expect(later.code, later.stderr).toBe(0);
  }, 60_000);
});
