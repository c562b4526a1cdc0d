/**
 * `enqueue` of a long backfill stopped half-way (Ctrl-C): through the built CLI with a real
 * redis-server. It says what was left and exits 130 (as killed by SIGINT), never in silence; the
 * same enqueue again queues the rest and nothing twice.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { QUEUE_NAME, QUEUE_PREFIX } from '../../src/queue/slice-queue.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

// Ten years of 1m and 1h bars of four codes, a slice per code and day: about 29,000 slices.
const ARGS = ['enqueue', 'kline-backfill', '--since', '2016-01-01', '--until', '2026-01-01', '--clock', '2026-11-20T12:00:00Z', '--slice-requests', '1'];

describe('enqueue interrupted', () => {
  const redis = useRedisServer();

  it('says so on stderr and exits as interrupted; enqueueing again queues the rest', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const output = tempDir();
    const watch = new Redis(redis().url);
    try {
      const first = startCli([...ARGS, '--output', output], { env });
      // Stopped once the first slices are on the queue, not before.
      while ((await watch.exists(`${QUEUE_PREFIX}:${QUEUE_NAME}:wait`)) === 0) await new Promise((r) => setTimeout(r, 20));
      first.child.kill('SIGINT');
      const r = await first.result;
      expect(r.signal ?? r.code, r.stderr).toBe('SIGINT');
      expect(r.stderr).toMatch(/^quotelake: enqueue SIGINT: stopped with part of the run's \d+ slices queued; enqueue the same run again to queue the rest \(what is queued is not queued twice\)\n$/);
      const slices = Number(/run's (\d+) slices/.exec(r.stderr)![1]);
      const queuedBefore = await watch.llen(`${QUEUE_PREFIX}:${QUEUE_NAME}:wait`);
      expect(queuedBefore).toBeGreaterThan(0);
      expect(queuedBefore).toBeLessThan(slices);

      const again = await runCli([...ARGS, '--output', output, '--json'], { env });
      expect(again.code, again.stderr).toBe(0);
      const doc = JSON.parse(again.stdout) as { slices: number; added: number; queued: number };
      expect(doc.slices).toBe(slices);
      expect(doc.added + doc.queued).toBe(slices);
      expect(doc.queued).toBe(queuedBefore);
      expect(await watch.llen(`${QUEUE_PREFIX}:${QUEUE_NAME}:wait`)).toBe(slices);
    } finally {
      watch.disconnect();
    }
  }, 180_000);
});
