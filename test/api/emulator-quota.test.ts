import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaExhaustedError } from '../../src/core/errors.js';
import type { ServiceClient } from '../../src/api/index.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Sends kline requests one after another until the quota stops them; returns how many succeeded. */
async function drain(client: ServiceClient): Promise<{ ok: number; error: unknown }> {
  let ok = 0;
  for (;;) {
    try {
      await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
      ok++;
    } catch (error) {
      return { ok, error };
    }
  }
}

describe('daily quota against the emulator', () => {
  it('Free: 1000 requests, then QuotaExhaustedError before sending, with the reset instant; resumes after midnight', async () => {
    world = await startWorld({ start: '2026-03-02T21:00:00.000Z' });
    // Blocks of 10 reservations per file lock keep this 1000-request test quick; exactness holds.
    const { client, infos } = world.client('free', { quotaBlockSize: 10 });
    const { ok, error } = await drain(client);
    expect(ok).toBe(1000);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(error).toMatchObject({ used: 1000, limit: 1000, code: 'QL_QUOTA_EXHAUSTED' });
    // Stopped before sending: the service never saw a 1001st request and never said 429.
    expect(infos).toHaveLength(1000);
    expect(infos.every((i) => i.outcome === 'ok')).toBe(true);
    expect(world.emu.usage('demo-free')?.day.used).toBe(1000);
    expect(await client.quotaStatus()).toMatchObject({ used: 1000, remaining: 0, limit: 1000 });
    // 1000 requests at 1 per 10 s took 9990 s of clock time.
    expect(world.clock.now() - Date.parse('2026-03-02T21:00:00.000Z')).toBe(9_990_000);

    world.clock.set((error as QuotaExhaustedError).resetAt);
    const after = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(after.code).toBe('EURUSD');
    expect(await client.quotaStatus()).toMatchObject({ used: 1, remaining: 999, day: '2026-03-03' });
  });

  it('quotaTimeZone moves the reset to that zone\'s midnight', async () => {
    world = await startWorld({ start: '2026-03-02T13:00:00.000Z', quotaTimeZone: 'Asia/Shanghai' });
    const { client } = world.client('free', { quotaTimeZone: 'Asia/Shanghai' });
    const status = await client.quotaStatus();
    expect(status.resetAt.toISOString()).toBe('2026-03-02T16:00:00.000Z');
    expect(status.day).toBe('2026-03-02');
  });

  it('the service saying "daily limit exceeded" syncs the local count (another machine used the token)', async () => {
    world = await startWorld({ start: '2026-03-02T21:00:00.000Z' });
    const first = world.client('free', { quotaBlockSize: 10 });
    await drain(first.client);
    // A second client with its own state directory knows nothing of the first one's count.
    const otherState = await mkdtemp(join(tmpdir(), 'ql-api-other-'));
    try {
      const second = world.client('free', { stateDir: otherState });
      const error = await second.client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaExhaustedError);
      expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-03-03T00:00:00.000Z');
      expect(second.infos.map((i) => i.outcome)).toEqual(['quota-exhausted']);
      // The answer's ret is reported (the debug `request` line's `ret`), as for any other answer.
      expect(second.infos[0]).toMatchObject({ status: 200, ret: 429 });
      expect(await second.client.quotaStatus()).toMatchObject({ remaining: 0 });
      // Now known locally: the next call fails without a request.
      await expect(second.client.tradeTicks(['EURUSD'])).rejects.toBeInstanceOf(QuotaExhaustedError);
      expect(second.infos).toHaveLength(1);
    } finally {
      await rm(otherState, { recursive: true, force: true });
    }
  });

  it('two clients sharing one quota file never exceed the cap together', async () => {
    world = await startWorld({ start: '2026-03-02T00:00:00.000Z' });
    // Different block sizes, so reservations interleave unevenly under the lock.
    const a = world.client('free', { runId: 'a', quotaBlockSize: 7 });
    const b = world.client('free', { runId: 'b', quotaBlockSize: 3 });
    const [ra, rb] = await Promise.all([drain(a.client), drain(b.client)]);
    expect(ra.error).toBeInstanceOf(QuotaExhaustedError);
    expect(rb.error).toBeInstanceOf(QuotaExhaustedError);
    expect(ra.ok + rb.ok).toBe(1000);
    expect(ra.ok).toBeGreaterThan(0);
    expect(rb.ok).toBeGreaterThan(0);
    // The service agrees, and never had to refuse for the day.
    expect(world.emu.usage('demo-free')?.day.used).toBe(1000);
    const all = [...a.infos, ...b.infos];
    expect(all.filter((i) => i.outcome === 'quota-exhausted')).toHaveLength(0);
    // Two limiters on one token collide on the service's windows; those 429s were re-queued.
    expect(all.filter((i) => i.outcome === 'ok')).toHaveLength(1000);
  });
});
