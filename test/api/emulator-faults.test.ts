import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, TransportError } from '../../src/core/errors.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const FAULT_TOKENS = {
  'tok-5xx-half': '5xx=0.5',
  'tok-drop-half': 'drop=0.5',
  'tok-truncate-half': 'truncate=0.5',
  'tok-429-half': '429=0.5',
  'tok-drip': 'drip=2ms@1',
  'tok-latency': 'latency=30ms@1',
  'tok-5xx-always': '5xx=1',
  'tok-truncate-always': 'truncate=1',
  'tok-mix': 'latency=5ms@0.2,5xx=0.1,drop=0.1,truncate=0.1,429=0.1,drip=1ms@0.1',
} as const;

async function faultWorld() {
  return startWorld({
    plans: Object.entries(FAULT_TOKENS).map(([token, faults]) => ({ token, plan: 'professional' as const, faults })),
  });
}

describe('every emulator fault kind is survived with the right result', () => {
  it.each([
    ['tok-5xx-half', 'transport-error'],
    ['tok-drop-half', 'transport-error'],
    ['tok-truncate-half', 'transport-error'],
    ['tok-429-half', 'rate-limited'],
    ['tok-drip', null],
    ['tok-latency', null],
  ] as const)('%s: every request still succeeds with the right data', async (token, failureOutcome) => {
    world = await faultWorld();
    const { client, infos } = world.client('professional', { token, retry: { attempts: 10 } });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? client.kline({ code: 'BTCUSDT', klineType: 1, count: 3 }) : client.depthTicks(['AAPL.US', 'EURUSD']),
      ),
    );
    for (const [i, r] of results.entries()) {
      if (i % 2 === 0) expect((r as { bars: unknown[] }).bars).toHaveLength(3);
      else expect(r).toMatchObject({ missing: [], invalid: [] });
    }
    const failures = infos.filter((i) => i.outcome !== 'ok');
    if (failureOutcome === null) expect(failures).toEqual([]);
    else {
      expect(failures.length).toBeGreaterThan(0);
      expect(new Set(failures.map((f) => f.outcome))).toEqual(new Set([failureOutcome]));
    }
    // 12 calls, the depth ones split by family: 18 successful requests.
    expect(infos.filter((i) => i.outcome === 'ok')).toHaveLength(18);
  });

  it('a spurious 429 is re-queued behind a paused limiter without using up attempts', async () => {
    world = await faultWorld();
    const { client, infos } = world.client('professional', { token: 'tok-429-half', retry: { attempts: 1 } });
    for (let i = 0; i < 10; i++) await client.tradeTicks(['EURUSD']);
    const limited = infos.filter((i) => i.outcome === 'rate-limited');
    expect(limited.length).toBeGreaterThan(0);
    // Each 429 held the limiter for one per-second window before the next admission.
    for (const l of limited) {
      const next = infos[infos.indexOf(l) + 1]!;
      expect(next.sentAt - l.sentAt).toBeGreaterThanOrEqual(1000);
    }
  });

  it('suspension endpoints survive faults too (429 is HTTP 500 "rate limit")', async () => {
    world = await faultWorld();
    const { client, infos } = world.client('professional', { token: 'tok-429-half' });
    const r = await Promise.all([client.halts('sse'), client.halts('nyse'), client.halts('nasdaq'), client.halts('sse')]);
    expect(r.every((x) => x.success)).toBe(true);
    expect(infos.filter((i) => i.outcome === 'ok')).toHaveLength(4);
  });

  it('a fault on every attempt ends in a TransportError after the configured attempts', async () => {
    world = await faultWorld();
    for (const token of ['tok-5xx-always', 'tok-truncate-always']) {
      const { client, infos } = world.client('professional', { token, retry: { attempts: 4 } });
      const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).endpoint).toBe('/quote-b-api/kline');
      expect(infos).toHaveLength(4);
      expect(new Set(infos.map((i) => i.trace)).size).toBe(4);
    }
  });

  it('a random mix of every fault kind: 60 calls all delivered', async () => {
    world = await faultWorld();
    const { client, infos } = world.client('professional', { token: 'tok-mix', retry: { attempts: 12 } });
    const results = await Promise.all(Array.from({ length: 60 }, () => client.tradeTicks(['AAPL.US', 'TSLA.US'])));
    expect(results.every((r) => r.ticks.length === 2 && r.missing.length === 0)).toBe(true);
    expect(infos.filter((i) => i.outcome === 'ok')).toHaveLength(60);
    expect(infos.length).toBeGreaterThan(60);
  });
});

describe('batches against the emulator', () => {
  it('invalid-code bisection names the bad codes and delivers the rest', async () => {
    world = await startWorld();
    const { client, infos } = world.client('professional');
    const codes = ['AAPL.US', 'NOPE.US', 'TSLA.US', '700.HK', 'BAD.HK', '857.HK', '600000.SH', '000001.SZ'];
    const result = await client.tradeTicks(codes);
    expect(result.invalid.sort()).toEqual(['BAD.HK', 'NOPE.US']);
    expect(result.ticks.map((t) => t.code).sort()).toEqual(codes.filter((c) => !['NOPE.US', 'BAD.HK'].includes(c)).sort());
    expect(result.missing).toEqual([]);
    // Every bisect request went through the limiter and the quota.
    expect(infos.every((i) => i.outcome === 'ok' || i.ret === 600)).toBe(true);
    expect(world.emu.usage('demo-professional')?.day.used).toBe(infos.length);
    expect((await client.quotaStatus()).used).toBe(infos.length);
  });

  it('a code in the wrong family is invalid (600), the others are delivered', async () => {
    world = await startWorld();
    const { client } = world.client('professional', { familyOverrides: { 'TSLA.US': 'non-stock' } });
    const result = await client.depthTicks(['AAPL.US', 'TSLA.US', 'EURUSD']);
    expect(result.invalid).toEqual(['TSLA.US']);
    expect(result.ticks.map((t) => t.code).sort()).toEqual(['AAPL.US', 'EURUSD']);
  });

  it('Free: never more than 5 codes per request; all 12 delivered', async () => {
    world = await startWorld();
    const { client, infos } = world.client('free');
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ', 'EURUSD', 'USDJPY', 'GOLD', 'Silver', 'USOIL', 'BTCUSDT'];
    const result = await client.depthTicks(codes);
    expect(infos.map((i) => i.codes).every((n) => n <= 5)).toBe(true);
    expect(infos.map((i) => i.codes).reduce((a, b) => a + b, 0)).toBe(12);
    expect(result.ticks.map((t) => t.code).sort()).toEqual([...codes].sort());
    expect(result.missing).toEqual([]);
  });

  it('batch-kline: items packed to the plan cap, all series returned, bad code isolated', async () => {
    world = await startWorld();
    const { client, infos } = world.client('basic');
    const items = Array.from({ length: 130 }, (_, i) => ({ code: i % 2 === 0 ? 'AAPL.US' : 'TSLA.US', klineType: (i % 10) + 1 }))
      .filter((it) => it.klineType !== 6 && it.klineType !== 7);
    const unique = [...new Map(items.map((i) => [`${i.code}/${i.klineType}`, i])).values()];
    const result = await client.batchKline([...unique, { code: 'NOPE.US', klineType: 1 }]);
    expect(result.invalid).toEqual(['NOPE.US']);
    expect(result.series).toHaveLength(unique.length);
    expect(result.missing).toEqual([]);
    expect(infos.every((i) => i.codes <= 100)).toBe(true);
  });

  it('All-US plan: a HK code is unauthorized (604) and raised as ApiError naming the codes', async () => {
    world = await startWorld();
    const { client } = world.client('all-us');
    const error = await client.tradeTicks(['700.HK']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ ret: 604, codes: ['700.HK'], endpoint: '/quote-stock-b-api/trade-tick' });
  });
});
