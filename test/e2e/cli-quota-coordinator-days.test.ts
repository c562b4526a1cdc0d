/**
 * `quota --coordinator` lists, as "used today", the count of the day that is today in the count's
 * own quota zone, and no other. Redis keeps a day's count a day past its midnight, and a process
 * whose clock is ahead (another host past midnight, or a run with a later --clock) may already have
 * counted the next day: that count was listed beside today's, a second line for the same token
 * with its requests shown as used today.
 */
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { tokenKeys } from '../../src/api/redis/redis-keys.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const TOKEN = 'demo-professional';

interface SharedDoc {
  coordinator: { tokens: { day: string; usedToday: number; resetAt: string }[] };
}

describe('quota --coordinator and the days Redis holds', () => {
  const redis = useRedisServer();

  async function seed(days: { day: string; used: number; zone: string; resetAt: string }[]): Promise<void> {
    const client = new Redis(redis().url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      const keys = tokenKeys(tokenHash16(TOKEN));
      await client.flushdb();
      for (const d of days) {
        await client.hset(keys.day(d.day), { used: d.used, unknown: 0, limit: 1_728_000, zone: d.zone, resetAt: Date.parse(d.resetAt), 'p:test': d.used });
      }
    } finally {
      client.disconnect();
    }
  }

  const quotaAt = async (clock: string) => {
    const r = await runCli(['quota', '--output', join(tempDir('ql-quota-days-'), 'lake'), '--clock', clock, '--coordinator', redis().url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as SharedDoc).coordinator.tokens.map((t) => ({ day: t.day, usedToday: t.usedToday, resetAt: t.resetAt }));
  };

  it('lists only today\'s count, before and after midnight', async () => {
    await seed([
      { day: '2026-11-19', used: 500, zone: 'UTC', resetAt: '2026-11-20T00:00:00Z' },
      { day: '2026-11-20', used: 7, zone: 'UTC', resetAt: '2026-11-21T00:00:00Z' },
    ]);
    // A minute before midnight: the next day's 7 requests are not today's.
    expect(await quotaAt('2026-11-19T23:59:00Z')).toEqual([{ day: '2026-11-19', usedToday: 500, resetAt: '2026-11-20T00:00:00.000Z' }]);
    expect(await quotaAt('2026-11-20T12:00:00Z')).toEqual([{ day: '2026-11-20', usedToday: 7, resetAt: '2026-11-21T00:00:00.000Z' }]);
  }, 60_000);

  it('reads "today" in the count\'s own quota zone', async () => {
    await seed([
      { day: '2026-11-20', used: 40, zone: 'Asia/Shanghai', resetAt: '2026-11-20T16:00:00Z' },
      { day: '2026-11-21', used: 3, zone: 'Asia/Shanghai', resetAt: '2026-11-21T16:00:00Z' },
    ]);
    // 10:00 UTC is 18:00 in Shanghai: the 20th there.
    expect(await quotaAt('2026-11-20T10:00:00Z')).toEqual([{ day: '2026-11-20', usedToday: 40, resetAt: '2026-11-20T16:00:00.000Z' }]);
  }, 60_000);
});
