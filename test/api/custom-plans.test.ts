/**
 * Custom plans on both sides: the client and the emulator read the same plans file, so the client
 * paces to a custom plan's limits with no rejection, and an unlimited plan lifts every window and the
 * daily count on both sides (virtual clock: time moves only when the limiter waits, never a sleep).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/api/rate-limiter.js';
import { manualSleep } from '../../src/api/sleep.js';
import { ManualClock } from '../../src/core/clock.js';
import { QuotaExhaustedError } from '../../src/core/errors.js';
import { readPlansFile, type PlansDocument } from '../../src/core/plans-file.js';
import { loadPlansFile } from '../../src/emulator/plans-file.js';
import { theoreticalLastAdmission } from '../helpers/sliding-window-oracle.js';
import { startWorld, type World } from './helpers/emulator.js';

const FILE = join(mkdtempSync(join(tmpdir(), 'ql-custom-plans-')), 'plans.yaml');
writeFileSync(
  FILE,
  `plans:
  - name: tight
    base: premium
    perSecond: 5
    perMinute: 40
    perDay: 100
    batchKlineGapMs: 300
    batchKlineItemCap: 3
  - name: replay
    perSecond: unlimited
    perMinute: unlimited
    perDay: unlimited
    batchKlineGapMs: 0
    suspensionGapMs: 0
tokens:
  - token: not-read-by-the-client
    plan: tight
`,
);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The emulator and the client, each given the same file the way its command line gives it. */
async function worldWith(): Promise<{ w: World; plans: PlansDocument }> {
  const emulatorSide = await loadPlansFile(FILE);
  const plans = await readPlansFile(FILE);
  world = await startWorld({ customPlans: emulatorSide.customPlans, plans: emulatorSide.tokens });
  return { w: world, plans };
}

const CODES = ['AAPL.US', 'EURUSD', '700.HK', 'BTCUSDT', 'GOLD'];

describe('a custom plan, the same file on both sides', () => {
  it('the client uses its limits to the last request: 0 rejections, clock time = the theoretical minimum, daily cap before the wire', async () => {
    const { w, plans } = await worldWith();
    const { client, infos } = w.client('tight', { plans });
    expect(client.limits).toMatchObject({ name: 'tight', perSecond: { limit: 5, windowMs: 1000 }, perMinute: { limit: 40 }, perDay: 100, batchKlineItemCap: 3 });
    const t0 = w.clock.now();
    const n = 60;
    await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const code = CODES[i % CODES.length]!;
        return i % 2 === 0 ? client.kline({ code, klineType: 1, count: 5 }) : client.tradeTicks([code]);
      }),
    );
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    // 40 per minute binds: requests 41-60 wait for the first minute to pass.
    const elapsed = w.clock.now() - t0;
    expect(elapsed).toBe(theoreticalLastAdmission(n, [{ limit: 5, windowMs: 1000 }, { limit: 40, windowMs: 60_000 }]));
    expect(elapsed).toBe(63_000);
    const usage = w.emu.usage('demo-tight');
    expect(usage).toMatchObject({ plan: 'tight', day: { used: n, limit: 100 }, perSecond: { limit: 5, windowMs: 1000 }, perMinute: { limit: 40 } });
    expect((await client.quotaStatus()).used).toBe(n);
  });

  it('its batch-kline gap and item cap (4 items at a cap of 3: two even requests 300 ms apart)', async () => {
    const { w, plans } = await worldWith();
    const { client, infos } = w.client('tight', { plans });
    const t0 = w.clock.now();
    const result = await client.batchKline(['AAPL.US', 'TSLA.US', 'EURUSD', 'GOLD'].map((code) => ({ code, klineType: 1 })));
    expect(result.series).toHaveLength(4);
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    expect(infos.map((i) => [i.codes, i.sentAt - t0])).toEqual([
      [2, 0],
      [2, 300],
    ]);
  });

  it('its daily cap stops the client before the wire (the emulator counted exactly the cap)', async () => {
    const { w, plans } = await worldWith();
    const { client } = w.client('tight', { plans, quotaBlockSize: 1 });
    for (let i = 0; i < 100; i++) await client.tradeTicks(['EURUSD']);
    await expect(client.tradeTicks(['EURUSD'])).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(w.emu.usage('demo-tight')?.day.used).toBe(100);
  });
});

describe('an unlimited plan', () => {
  it('lifts every window and the daily count on both sides: 1500 requests and 5 batch-klines at one instant, no quota file', async () => {
    const { w, plans } = await worldWith();
    const { client, infos } = w.client('replay', { plans });
    const t0 = w.clock.now();
    // More than a professional minute (1200) and second (20), all at the same clock instant.
    await Promise.all([
      ...Array.from({ length: 1500 }, (_, i) => client.tradeTicks([CODES[i % CODES.length]!])),
      ...Array.from({ length: 5 }, () => client.batchKline([{ code: 'AAPL.US', klineType: 1 }])),
    ]);
    expect(w.clock.now()).toBe(t0);
    expect(infos).toHaveLength(1505);
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    const usage = w.emu.usage('demo-replay')!;
    expect(usage.day.used).toBe(1505);
    expect([usage.day.limit, usage.perSecond.limit, usage.perMinute.limit]).toEqual([Infinity, Infinity, Infinity]);
    expect(usage.perSecond.used).toBe(0);
    const status = await client.quotaStatus();
    expect([status.used, status.limit]).toEqual([0, Infinity]);
    // Nothing counted locally: no quota file, no lock, per request.
    expect(existsSync(join(w.stateDir, 'quota'))).toBe(false);
  });

  it('the limiter keeps no window for a lifted limit, however many requests pass', async () => {
    const clock = new ManualClock('2026-03-02T15:00:00Z');
    const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock) });
    const lifted = [{ key: 'combined:second', limit: Infinity, windowMs: 1000 }, { key: 'combined:minute', limit: Infinity, windowMs: 60_000 }];
    for (let i = 0; i < 10_000; i++) (await limiter.acquire(lifted)).release();
    expect(limiter.admitted).toBe(10_000);
    expect(clock.now()).toBe(Date.parse('2026-03-02T15:00:00Z'));
    expect((limiter as unknown as { windows: Map<string, unknown> }).windows.size).toBe(0);
  });
});
