/**
 * A worker running until stopped, whose Redis restarts without its data: the queue and its
 * schedules are gone, and the worker says so when Redis is back, instead of waiting in silence.
 */
import { describe, expect, it } from 'vitest';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { hourlyBtcPipeline } from './helpers/hourly-pipeline.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

describe('Redis restarted empty under a worker run until stopped', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('the worker says the queue and its schedules are gone, and what to do', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = hourlyBtcPipeline('lost');
    const output = tempDir();
    expect((await runCli(['enqueue', file, '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--output', output, '--clock', CLOCK], { env })).code).toBe(0);
    expect((await runCli(['enqueue', file, '--since', '1d', '--every', '0 2 * * *', '--output', output, '--clock', CLOCK], { env })).code).toBe(0);
    const worker = startCli(['worker', '--clock', CLOCK, '--log-level', 'info'], { env });
    await worker.waitForStderr(/slice done/);
    await redis().restart();
    await settleTokens(redis().url, ['demo-professional']);
    await worker.waitForStderr(/Redis lost its data/);
    worker.child.kill('SIGTERM');
    expect((await worker.result).code).toBe(130);
    expect(worker.stderr()).toContain(
      'quotelake worker: Redis lost its data (it restarted without persistence): the slices waiting or running on the queue then are gone, and its schedules; this worker waits for new slices. Run the same "quotelake enqueue" again, and each "quotelake enqueue --every" for the schedules',
    );
    expect((worker.stderr().match(/Redis lost its data/g) ?? []).length).toBe(1);
  }, 60_000);
});
