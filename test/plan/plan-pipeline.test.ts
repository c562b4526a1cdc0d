import { afterEach, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/api/index.js';
import { components } from '../../src/components.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { planPipeline, scheduleRequests } from '../../src/plan/index.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { theoreticalLastAdmission } from '../helpers/sliding-window-oracle.js';
import { drain, startWorld, type World } from '../sources/helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const NOW = Date.parse('2026-03-02T15:00:00Z');

function pipeline(source: Record<string, unknown>): PipelineInput {
  return { name: 'p', source: source as PipelineInput['source'], transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };
}

describe('scheduleRequests', () => {
  it.each(['free', 'basic', 'premium', 'professional'] as const)('%s: the sliding windows alone', (plan) => {
    const limits = PLANS[plan];
    for (const n of [1, 19, 21, 600, 1300]) {
      expect(scheduleRequests([{ endpoint: '/x', requests: n }], limits)).toBe(theoreticalLastAdmission(n, [limits.perSecond, limits.perMinute]));
    }
  });
  it('a gap chain (batch-kline) waits on itself, other requests do not wait for it', () => {
    const limits = PLANS.free;
    expect(scheduleRequests([{ endpoint: '/b', requests: 3, minGapMs: 10_000, gapKey: 'batch' }], limits)).toBe(20_000);
    const mixed = scheduleRequests(
      [
        { endpoint: '/b', requests: 2, minGapMs: 30_000, gapKey: 'batch' },
        { endpoint: '/k', requests: 2 },
      ],
      PLANS.professional,
    );
    expect(mixed).toBe(30_000);
  });
});

describe('planPipeline', () => {
  it('a year of 1m crypto on professional: 1052 requests, 52 s under 20/s, a sliver of the day', () => {
    const plan = planPipeline(pipeline({ type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1m'], since: '365d' }), {
      plan: 'professional',
      now: NOW,
      registry: components,
    });
    expect(plan.requests).toEqual({ '/quote-b-api/kline': 1052 });
    expect(plan.totalRequests).toBe(1052);
    expect(plan.estimatedMs).toBe(52_000);
    expect(plan.quota).toEqual({ perDay: 1_728_000, remaining: 1_728_000, share: 1052 / 1_728_000, days: 1 });
    expect(plan.dataset).toBe('kline');
    expect(plan.partitions).toHaveLength(366);
    expect(plan.partitions[0]).toBe('interval=1m/year=2025/date=2025-03-02');
  });

  it('kline-latest on a Monday before the open (README): a stock\'s last two minutes and hours are in Friday\'s folder, its days in the year\'s', () => {
    const plan = planPipeline(pipeline({ type: 'kline-latest', codes: ['AAPL.US'], intervals: ['1m', '1h', '1d'] }), {
      plan: 'professional',
      now: Date.parse('2026-11-23T10:00:40Z'),
      registry: components,
    });
    expect([...plan.partitions].sort()).toEqual([
      'interval=1d/year=2026/date=__HIVE_DEFAULT_PARTITION__',
      'interval=1h/year=2026/date=2026-11-20',
      'interval=1m/year=2026/date=2026-11-20',
    ]);
  });

  it('an incremental run touches the partitions of the bars it fetches, not the empty stretch before them', () => {
    const sec = (iso: string) => Date.parse(iso) / 1000;
    // BTCUSDT 1h held up to 2026-03-01T23:00Z (a day's last bar); AAPL.US 1h up to the close of 02-27 (a Friday).
    const checkpoints = new Map([
      ['kline/BTCUSDT/1h', { stream: 'kline/BTCUSDT/1h', position: { watermark: sec('2026-03-01T23:00:00Z'), low: sec('2026-02-20T00:00:00Z') } }],
      ['kline/AAPL.US/1h', { stream: 'kline/AAPL.US/1h', position: { watermark: sec('2026-02-27T20:00:00Z'), low: sec('2026-02-20T14:00:00Z') } }],
    ]);
    const plan = planPipeline(pipeline({ type: 'kline-history', codes: ['BTCUSDT', 'AAPL.US'], intervals: ['1h'], since: '10d' }), { plan: 'professional', now: NOW, checkpoints, registry: components });
    // 02-28 and 03-01 (the weekend, and the stretch after the watermark) hold no new bar of either.
    expect(plan.partitions).toEqual(['interval=1h/year=2026/date=2026-03-02']);
  });

  it('beyond today\'s quota: how many days', () => {
    const input = pipeline({ type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT'], intervals: ['1m'], since: '365d' });
    const plan = planPipeline(input, { plan: 'free', quotaRemaining: 100, now: NOW, registry: components });
    expect(plan.totalRequests).toBe(2104);
    // 100 today, then 1000 a day: 3 more days.
    expect(plan.quota.days).toBe(4);
    expect(plan.quota.share).toBeCloseTo(21.04);
    // Today's 100 requests: 1 per 10 s and 10 per minute.
    expect(plan.estimatedMs).toBe(theoreticalLastAdmission(100, [PLANS.free.perSecond, PLANS.free.perMinute]));
    expect(plan.notes.at(-1)).toContain('4 days');
  });

  it('stocks: one request per series and a note when since cannot be reached', () => {
    const plan = planPipeline(pipeline({ type: 'kline-history', codes: ['AAPL.US', '600000.SH'], intervals: ['1m', '1d'], since: '30d' }), {
      plan: 'basic',
      now: NOW,
      registry: components,
    });
    expect(plan.requests).toEqual({ '/quote-stock-b-api/kline': 4 });
    expect(plan.notes.filter((n) => n.includes('cannot be reached')).map((n) => n.split(':')[0])).toEqual(['kline AAPL.US 1m', 'kline 600000.SH 1m']);
  });

  it('kline-latest and halts: gaps of their own', () => {
    const latest = planPipeline(
      pipeline({ type: 'kline-latest', codes: ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'Silver', 'USOIL', 'AAPL.US'], intervals: ['1m'], everySeconds: 60, count: 3 }),
      { plan: 'free', now: NOW, registry: components },
    );
    // Per round: non-stock 6 items = 2 requests (cap 5), stock 1; 10 s gap across both families.
    expect(latest.requests).toEqual({ '/quote-b-api/batch-kline': 6, '/quote-stock-b-api/batch-kline': 3 });
    expect(latest.estimatedMs).toBe(140_000);
    const halts = planPipeline({ name: 'h', source: { type: 'trading-halts', pageSize: 100 }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet' } }, {
      plan: 'professional',
      now: NOW,
      checkpoints: new Map([['halt/sse', { stream: 'halt/sse', position: { seen: {}, total: 550 } }]]),
      registry: components,
    });
    expect(halts.requests).toEqual({ '/api/suspension/sse': 6, '/api/suspension/nyse': 1, '/api/suspension/nasdaq': 1 });
    expect(halts.estimatedMs).toBe(5 * 60_000);
  });

  it('the plan of a resumed backfill equals what the run then sends', async () => {
    world = await startWorld('2026-03-02T15:00:00.000Z');
    const w = world;
    const source = { type: 'kline-history', codes: ['BTCUSDT', 'EURUSD', 'AAPL.US'], intervals: ['5m', '1h'], since: '2026-01-15' };
    const { type: _type, ...rest } = source;
    const config = klineHistoryConfigSchema.parse(rest);
    const client = w.client('professional');
    const src = klineHistory.create(config, w.env(client));
    const planOf = (checkpoints: Map<string, import('../../src/core/component.js').Checkpoint>) =>
      planPipeline(pipeline(source), { plan: 'professional', now: w.clock.now(), checkpoints, registry: components });
    const full = planOf(new Map());
    const killed = await drain(src, w.clock, new Map(), { maxBatches: 7 });
    const resumed = planOf(killed.checkpoints);
    // What the resumed run sends, stream by stream, by its own events. (Not the client's totals: the
    // client counts a request when it reaches a socket, so pages the killed run had in flight can
    // land in them after the kill, as requests of no stream.)
    const second = await drain(src, w.clock, killed.checkpoints);
    const planned = Object.fromEntries(resumed.streams.map((s) => [s.stream, s.requests]));
    expect(second.events.snapshot().requestsByStream).toEqual(planned);
    expect(resumed.streams.reduce((n, s) => n + s.requests, 0)).toBe(resumed.totalRequests);
    const sent = client.requestCounts();
    // A kill costs, per interrupted series, the pages in flight when it was stopped (never
    // committed; at most prefetchPages = 4) and, on resume, one request for the bars formed since.
    const interrupted = [...killed.checkpoints.values()].filter((c) => c.position.walk !== undefined).length;
    expect(interrupted).toBeGreaterThan(0);
    expect(Object.values(sent).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(full.totalRequests + 5 * interrupted);
  });
});
