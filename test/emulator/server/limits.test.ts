import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { PLANS, type PlanName } from '../../../src/emulator/plans.js';
import { klineQuery, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const kline = (hh: Harness, token: string) => hh.market('stock', 'kline', token, klineQuery('AAPL.US'));
const retOf = async (p: Promise<{ json: any }>) => (await p).json.ret as number;
const batchItem = { code: 'AAPL.US', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 1, adjust_type: 0 };
const batch = (hh: Harness, token: string) => hh.batch('stock', token, { trace: 'b', data: { data_list: [batchItem] } });

const perSecond: [PlanName, number, number][] = [
  ['free', 1, 10_000],
  ['basic', 1, 1000],
  ['premium', 10, 1000],
  ['professional', 20, 1000],
  ['all-hk', 20, 1000],
  ['all-cn', 20, 1000],
  ['all-us', 20, 1000],
];

describe('per-second windows of every plan', () => {
  for (const [plan, n, w] of perSecond) {
    it(`${plan}: ${n} per ${w} ms, sliding, rejected not counted`, async () => {
      expect(PLANS[plan].perSecond).toEqual({ count: n, windowMs: w });
      h = await startHarness();
      const token = `demo-${plan}`;
      const code = plan === 'all-hk' ? '700.HK' : plan === 'all-cn' ? '600000.SH' : 'AAPL.US';
      const q = () => h!.market('stock', 'kline', token, klineQuery(code));
      for (let i = 0; i < n; i++) expect(await retOf(q())).toBe(200);
      const over = await q();
      expect(over.json).toMatchObject({ ret: 429, msg: 'rate limit', trace: 't-1', data: {} });
      h.clock.advance(w - 1);
      expect(await retOf(q())).toBe(429);
      h.clock.advance(1);
      for (let i = 0; i < n; i++) expect(await retOf(q())).toBe(200);
      expect(await retOf(q())).toBe(429);
      const u = h.emu.usage(token)!;
      expect(u.plan).toBe(plan);
      expect(u.day.used).toBe(2 * n);
      expect(u.perSecond).toEqual({ used: n, limit: n, windowMs: w });
      expect(u.perMinute.used).toBe(2 * n);
    });
  }
});

describe('other windows', () => {
  it('per-minute window is counted (professional: 60 bursts of 20 fill 1200)', async () => {
    h = await startHarness();
    for (let s = 0; s < 60; s++) {
      const rets = await Promise.all(Array.from({ length: 20 }, () => retOf(kline(h!, 'demo-professional'))));
      expect(rets.every((r) => r === 200)).toBe(true);
      if (s < 59) h.clock.advance(1000);
    }
    expect(h.emu.usage('demo-professional')!.perMinute).toEqual({ used: 1200, limit: 1200, windowMs: 60_000 });
    expect(await retOf(kline(h, 'demo-professional'))).toBe(429);
    h.clock.advance(1000);
    expect(h.emu.usage('demo-professional')!.perMinute.used).toBe(1180);
    expect(await retOf(kline(h, 'demo-professional'))).toBe(200);
  });

  for (const [plan, gap] of [
    ['free', 10_000],
    ['basic', 3000],
    ['premium', 2000],
    ['professional', 1000],
    ['all-us', 1000],
  ] as const) {
    it(`/batch-kline minimum gap ${gap} ms on ${plan}`, async () => {
      h = await startHarness();
      const token = `demo-${plan}`;
      expect(await retOf(batch(h, token))).toBe(200);
      h.clock.advance(gap - 1);
      expect(await retOf(batch(h, token))).toBe(429);
      if (plan !== 'free' && plan !== 'basic') expect(await retOf(kline(h, token))).toBe(200); // only the gap binds
      h.clock.advance(1);
      expect(await retOf(batch(h, token))).toBe(200);
    });
  }

  it('suspension: 1 per minute per exchange endpoint, HTTP 500 rate limit', async () => {
    h = await startHarness();
    const t = 'demo-professional';
    expect((await h.get('/api/suspension/sse', { token: t })).status).toBe(200);
    h.clock.advance(59_999);
    const r = await h.get('/api/suspension/sse', { token: t });
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ success: false, error: 'rate limit' });
    expect((await h.get('/api/suspension/nyse', { token: t })).status).toBe(200);
    expect((await h.get('/api/suspension/nasdaq', { token: t })).status).toBe(200);
    expect(await retOf(kline(h, t))).toBe(200); // market data is not blocked by it
    h.clock.advance(1);
    expect((await h.get('/api/suspension/sse', { token: t })).status).toBe(200);
  });

  it('rejected requests count toward nothing; served errors do count', async () => {
    h = await startHarness();
    expect(await retOf(h.market('stock', 'kline', 'demo-free', klineQuery('NOPE.US')))).toBe(600);
    h.clock.advance(5000);
    expect(await retOf(kline(h, 'demo-free'))).toBe(429);
    expect(await retOf(kline(h, 'demo-free'))).toBe(429);
    h.clock.advance(5000);
    expect(await retOf(kline(h, 'demo-free'))).toBe(200);
    expect(h.emu.usage('demo-free')!.day.used).toBe(2);
    // an unknown token counts nothing and has no usage
    expect(await retOf(kline(h, 'who-is-this'))).toBe(401);
    expect(h.emu.usage('who-is-this')).toBeUndefined();
  });

  it('tokens are independent', async () => {
    h = await startHarness();
    expect(await retOf(kline(h, 'demo-free'))).toBe(200);
    expect(await retOf(kline(h, 'demo-free'))).toBe(429);
    expect(await retOf(kline(h, 'demo-basic'))).toBe(200);
  });
});

describe('daily cap with midnight reset (free: 1000 per day)', () => {
  const fillDay = async (hh: Harness) => {
    for (let i = 0; i < 1000; i++) {
      const r = await retOf(kline(hh, 'demo-free'));
      if (r !== 200) throw new Error(`request ${i} got ret ${r}`);
      hh.clock.advance(10_000);
    }
  };

  it('UTC: the 1001st gets daily limit exceeded until 00:00 UTC', async () => {
    h = await startHarness({ clock: new ManualClock('2026-03-02T00:00:00Z') });
    await fillDay(h);
    const r = await kline(h, 'demo-free');
    expect(r.json).toMatchObject({ ret: 429, msg: 'daily limit exceeded', data: {} });
    const s = await h.get('/api/suspension/sse', { token: 'demo-free' });
    expect(s.status).toBe(500);
    expect(s.json).toEqual({ success: false, error: 'daily limit exceeded' });
    expect(h.emu.usage('demo-free')!.day).toEqual({
      date: '2026-03-02',
      used: 1000,
      limit: 1000,
      resetAt: '2026-03-03T00:00:00.000Z',
    });
    h.clock.set('2026-03-02T23:59:59.999Z');
    expect(await retOf(kline(h, 'demo-free'))).toBe(429);
    h.clock.set('2026-03-03T00:00:00.000Z');
    expect(await retOf(kline(h, 'demo-free'))).toBe(200);
    expect(h.emu.usage('demo-free')!.day.used).toBe(1);
  });

  it('Asia/Shanghai: the day turns at 16:00 UTC', async () => {
    h = await startHarness({
      clock: new ManualClock('2026-03-01T16:00:00Z'),
      quotaTimeZone: 'Asia/Shanghai',
    });
    await fillDay(h);
    h.clock.set('2026-03-02T15:59:59.999Z');
    expect((await kline(h, 'demo-free')).json.msg).toBe('daily limit exceeded');
    expect(h.emu.usage('demo-free')!.day.date).toBe('2026-03-02');
    h.clock.set('2026-03-02T16:00:00.000Z');
    expect(await retOf(kline(h, 'demo-free'))).toBe(200);
    expect(h.emu.usage('demo-free')!.day.date).toBe('2026-03-03');
  });

  it('rejects an unknown quota zone', async () => {
    await expect(startHarness({ quotaTimeZone: 'Mars/Olympus' })).rejects.toThrow(/Mars\/Olympus/);
  });
});

describe('limits: false (serve --no-limits)', () => {
  it('lifts every window, gap and daily cap, but not the item and code caps of a request', async () => {
    h = await startHarness({ limits: false });
    // Free: 1 per 10 s, /batch-kline 10 s apart, a halt endpoint once a minute: all at one instant here.
    for (let i = 0; i < 12; i++) expect(await retOf(kline(h, 'demo-free'))).toBe(200);
    expect(await retOf(batch(h, 'demo-free'))).toBe(200);
    expect(await retOf(batch(h, 'demo-free'))).toBe(200);
    expect((await h.get('/api/suspension/nyse', { token: 'demo-free' })).status).toBe(200);
    expect((await h.get('/api/suspension/nyse', { token: 'demo-free' })).status).toBe(200);
    // A request's shape still follows the plan: six /batch-kline items are one over Free's five.
    const six = await h.batch('stock', 'demo-free', { trace: 'b6', data: { data_list: Array(6).fill(batchItem) } });
    expect(six.json).toEqual({ ret: 605, msg: 'too many requests', trace: 'b6', data: {} });
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ'];
    const ticks = await h.market('stock', 'trade-tick', 'demo-free', { trace: 't6', data: { symbol_list: codes.map((code) => ({ code })) } });
    expect(ticks.json.data.tick_list.map((t: { code: string }) => t.code)).toEqual(codes.slice(0, 5));
  });
});
