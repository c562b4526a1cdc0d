/**
 * A slice runs to an instant the enqueuer's clock had reached. A worker whose clock is behind it
 * (another host's clock off, or a --clock older than the enqueuer's, as against the emulator) would
 * fetch only up to its own "now" and mark the slice done: the rest of its range would then stay out
 * of the lake, and, the slice's id being its range, out of the queue too. Such a worker writes
 * nothing and stops, the slice back on the queue.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

describe('a worker whose clock is behind the slice it takes', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('fetches nothing, keeps the slice queued and stops with exit 2 saying which clocks differ', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const output = tempDir();
    const day = ['--codes', 'BTCUSDT', '--since', '2026-11-20T00:00:00Z', '--until', '2026-11-20T23:00:00Z', '--output', output];
    // The enqueuer's clock has seen the whole day: one slice of it, to 23:00.
    const queued = await runCli(['enqueue', 'kline-backfill', ...day, '--clock', '2026-11-25T00:00:00Z', '--json'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 2, added: 2 });

    // This worker's clock reads noon of that day.
    const r = await runCli(['worker', '--until-empty', '--clock', '2026-11-20T12:00:00Z', '--concurrency', '1'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /quotelake: worker stopped: the slice BTCUSDT 1[mh] interval=1[mh]\/year=2026\/date=2026-11-20 runs to 2026-11-20T23:00:00Z, after this worker's clock \(2026-11-20T12:00:00Z\)/,
    );
    expect(r.stderr).toContain('hint: give the worker the same --clock (or QUOTELAKE_CLOCK) as enqueue');
    expect(r.stderr).not.toContain('failed for good');
    expect(existsSync(join(output, 'kline'))).toBe(false);
    const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    expect(status).toMatchObject({ waiting: 2, active: 0, completed: 0, failed: 0 });

    // A worker whose clock has reached the slice's end runs it.
    const caughtUp = await runCli(['worker', '--until-empty', '--clock', '2026-11-21T00:00:00Z'], { env });
    expect(caughtUp.code, caughtUp.stderr).toBe(0);
    const after = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    expect(after).toMatchObject({ waiting: 0, completed: 2, failed: 0 });
  }, 90_000);
});
