/**
 * `queue status` counts slices: the firings of a schedule (each a job that a worker turns into
 * slices) are not among its completed ones, or a daily schedule would add one a day.
 */
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { hourlyBtcPipeline } from './helpers/hourly-pipeline.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

describe('a schedule that fires while a worker runs', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('its firings are not counted as completed slices', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = hourlyBtcPipeline('each');
    // A fixed span: every firing cuts the same one slice, run once and then found done.
    const span = ['--since', '2026-11-19T00:00:00Z', '--until', '2026-11-19T23:00:00Z'];
    const made = await runCli(['enqueue', file, ...span, '--output', tempDir(), '--every', '* * * * * *', '--name', 'each-second', '--clock', CLOCK], { env });
    expect(made.code, made.stderr).toBe(0);
    const worker = startCli(['worker', '--clock', CLOCK, '--log-level', 'info'], { env });
    await worker.waitForStderr(/schedule fired: each: 1 slices, 0 new[^]*schedule fired: each: 1 slices, 0 new/);
    expect((await runCli(['queue', 'unschedule', 'each-second'], { env })).code).toBe(0);
    worker.child.kill('SIGTERM');
    expect((await worker.result).code).toBe(130);
    expect((worker.stderr().match(/slice done:/g) ?? []).length).toBe(1);
    const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    expect(status).toMatchObject({ waiting: 0, active: 0, completed: 1, failed: 0 });
  }, 30_000);
});
