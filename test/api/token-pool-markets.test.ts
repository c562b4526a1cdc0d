/**
 * A pool of tokens on market-limited plans (all-us, all-hk, custom plans with a `market`), against
 * the real emulator on loopback, on one frozen clock: a call goes only to a token whose plan covers
 * its codes, when its stream is placed and when it moves; a stream whose token covers its codes
 * stays; with every covering token used up the call fails as an exhausted pool does, never on a
 * token that refuses the codes; with no covering token at all the service's 604 decides.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, createTokenPool, manualSleep, seededRandom, type ClientOptions, type PoolToken, type TokenPool } from '../../src/api/index.js';
import { ApiError, QuotaExhaustedError } from '../../src/core/errors.js';
import type { PlansDocument } from '../../src/core/plans-file.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
const pools: TokenPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await world?.close();
  world = undefined;
});

/** A pool whose members note, per token, the code of every K-line call and each answer's ret. */
function poolOn(w: World, tokens: PoolToken[], plans?: PlansDocument) {
  const asked: string[][] = tokens.map(() => []);
  const rets: number[] = [];
  const pool = createTokenPool({
    baseUrl: w.emu.url,
    tokens,
    ...(plans ? { plans } : {}),
    stateDir: w.stateDir,
    clock: w.clock,
    sleep: manualSleep(w.clock),
    retry: { random: seededRandom(7) },
    onRequest: (info) => {
      if (info.ret !== undefined) rets.push(info.ret);
    },
    createMember: (options: ClientOptions) => {
      const client = createClient(options);
      const index = tokens.findIndex((t) => t.token === options.token);
      const kline = client.kline.bind(client);
      client.kline = (request, signal) => {
        asked[index]!.push(request.code);
        return kline(request, signal);
      };
      return client;
    },
  });
  pools.push(pool);
  return { pool, asked, rets };
}

/** One stream (its own signal) per code, `calls` K-line calls each, the streams side by side. */
async function streams(pool: TokenPool, codes: readonly string[], calls: number): Promise<void> {
  await Promise.all(
    codes.map(async (code) => {
      const signal = new AbortController().signal;
      for (let i = 0; i < calls; i++) await pool.kline({ code, klineType: 8, count: 2 }, signal);
    }),
  );
}

const US = ['AAPL.US', 'TSLA.US'];
const HK = ['700.HK', '857.HK'];
const onlyMarket = (codes: readonly string[], suffix: string) => codes.every((c) => c.endsWith(suffix));

describe('token pool: a call goes to a token whose plan covers its codes', () => {
  it('all-hk and all-us: every .US stream on the all-us token, every .HK one on the all-hk token, no 604', async () => {
    world = await startWorld();
    // all-hk first: the token an idle pool would give the first stream, whatever its codes.
    const { pool, asked, rets } = poolOn(world, [
      { token: 'demo-all-hk', plan: 'all-hk' },
      { token: 'demo-all-us', plan: 'all-us' },
    ]);
    await streams(pool, [...US, ...US.map((c) => c), ...HK, ...HK], 3);
    expect(rets.filter((r) => r !== 200)).toEqual([]);
    expect(onlyMarket(asked[0]!, '.HK') && asked[0]!.length).toBe(12);
    expect(onlyMarket(asked[1]!, '.US') && asked[1]!.length).toBe(12);
    expect(pool.tokenUsage().map((u) => [u.streams, u.streamsTakenOver, u.streamsHandedOff])).toEqual([
      [4, 0, 0],
      [4, 0, 0],
    ]);
  });

  it('a stream whose token covers its codes stays there, though a market token would be idle', async () => {
    world = await startWorld();
    const { pool, asked } = poolOn(world, [
      { token: 'demo-professional', plan: 'professional' },
      { token: 'demo-all-us', plan: 'all-us' },
    ]);
    const signal = new AbortController().signal;
    for (let i = 0; i < 4; i++) await pool.kline({ code: 'AAPL.US', klineType: 8, count: 2 }, signal);
    // The first (idle pool, equal rates) went to the first token, which covers .US: the stream never moved.
    expect(asked).toEqual([['AAPL.US', 'AAPL.US', 'AAPL.US', 'AAPL.US'], []]);
    // A stream of crypto on the same pool goes to the one token that serves it, however loaded.
    const busy = new AbortController().signal;
    const lane = streams(pool, ['BTCUSDT', 'ETHUSDT'], 2);
    await pool.kline({ code: 'EURUSD', klineType: 8, count: 2 }, busy);
    await lane;
    expect(asked[1]).toEqual([]);
    expect(pool.tokenUsage().map((u) => u.streamsTakenOver)).toEqual([0, 0]);
  });

  it('a .US stream whose token used up its day moves to the other .US token, never to the idle all-hk one', async () => {
    const plans: PlansDocument = { file: 'plans.yaml', plans: [{ name: 'us-tiny', base: 'all-us', perDay: 3 }], tokens: undefined };
    world = await startWorld({
      customPlans: plans.plans,
      plans: [
        { token: 'us-tiny-1', plan: 'us-tiny' },
        { token: 'hk-1', plan: 'all-hk' },
        { token: 'us-2', plan: 'all-us' },
      ],
    });
    const { pool, asked, rets } = poolOn(
      world,
      [
        { token: 'us-tiny-1', plan: 'us-tiny' },
        { token: 'hk-1', plan: 'all-hk' },
        { token: 'us-2', plan: 'all-us' },
      ],
      plans,
    );
    const signal = new AbortController().signal;
    for (let i = 0; i < 6; i++) await pool.kline({ code: 'AAPL.US', klineType: 8, count: 2 }, signal);
    expect(rets.filter((r) => r !== 200)).toEqual([]);
    // Measured at the emulator: the all-hk token was never asked.
    expect(['us-tiny-1', 'hk-1', 'us-2'].map((t) => world!.emu.usage(t)?.day.used ?? 0)).toEqual([3, 0, 3]);
    // The fourth call found token 1's day used up before the wire and was asked again on token 3.
    expect(asked.map((a) => a.length)).toEqual([4, 0, 3]);
    expect(pool.tokenUsage().map((u) => [u.exhausted, u.streamsHandedOff, u.streamsTakenOver])).toEqual([
      [true, 1, 0],
      [false, 0, 0],
      [false, 0, 1],
    ]);
  });

  it('every token covering the codes used up: QuotaExhaustedError at their earliest reset, not a 604 from the token that refuses them', async () => {
    const plans: PlansDocument = { file: 'plans.yaml', plans: [{ name: 'us-tiny', base: 'all-us', perDay: 3 }], tokens: undefined };
    world = await startWorld({
      customPlans: plans.plans,
      plans: [
        { token: 'us-tiny-1', plan: 'us-tiny' },
        { token: 'hk-1', plan: 'all-hk' },
      ],
    });
    const { pool, asked, rets } = poolOn(
      world,
      [
        { token: 'us-tiny-1', plan: 'us-tiny' },
        { token: 'hk-1', plan: 'all-hk' },
      ],
      plans,
    );
    const signal = new AbortController().signal;
    const error = await (async () => {
      for (let i = 0; i < 5; i++) await pool.kline({ code: 'AAPL.US', klineType: 8, count: 2 }, signal);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(asked).toEqual([['AAPL.US', 'AAPL.US', 'AAPL.US', 'AAPL.US'], []]);
    expect(rets.filter((r) => r !== 200)).toEqual([]);
    expect(world.emu.usage('hk-1')?.day.used ?? 0).toBe(0);
    // A new .US stream fails the same way at once; .HK streams still run on the token that covers them.
    await expect(pool.kline({ code: 'TSLA.US', klineType: 8, count: 2 }, new AbortController().signal)).rejects.toBeInstanceOf(QuotaExhaustedError);
    await streams(pool, HK, 2);
    expect(asked[1]).toEqual(['700.HK', '857.HK', '700.HK', '857.HK']);
  });

  it('codes no token of the pool covers: placed as before, and the service\'s 604 names them', async () => {
    world = await startWorld();
    const { pool } = poolOn(world, [
      { token: 'demo-all-hk', plan: 'all-hk' },
      { token: 'demo-all-us', plan: 'all-us' },
    ]);
    const error = await pool.kline({ code: 'BTCUSDT', klineType: 8, count: 2 }, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).ret, (error as ApiError).codes]).toEqual([604, ['BTCUSDT']]);
  });

  it('depth and trade snapshots: a call of one market goes to its token; one mixing markets no token covers gets the 604', async () => {
    world = await startWorld();
    const { pool } = poolOn(world, [
      { token: 'demo-all-hk', plan: 'all-hk' },
      { token: 'demo-all-us', plan: 'all-us' },
    ]);
    const depth = await pool.depthTicks(US, new AbortController().signal);
    expect(depth.ticks.map((t) => t.code).sort()).toEqual([...US].sort());
    const trade = await pool.tradeTicks(HK, new AbortController().signal);
    expect(trade.ticks.map((t) => t.code).sort()).toEqual([...HK].sort());
    expect(pool.tokenUsage().map((u) => u.requestsTotal)).toEqual([1, 1]);
    const mixed = await pool.depthTicks(['AAPL.US', '700.HK'], new AbortController().signal).catch((e: unknown) => e);
    expect((mixed as ApiError).ret).toBe(604);
  });

  it('halts: each exchange goes to a token whose plan is answered for it', async () => {
    world = await startWorld();
    const { pool } = poolOn(world, [
      { token: 'demo-all-hk', plan: 'all-hk' },
      { token: 'demo-all-us', plan: 'all-us' },
      { token: 'demo-all-cn', plan: 'all-cn' },
    ]);
    for (const exchange of ['sse', 'nyse', 'nasdaq'] as const) {
      const answer = await pool.halts(exchange, undefined, new AbortController().signal);
      expect(answer.success).toBe(true);
    }
    expect(pool.tokenUsage().map((u) => u.requestsTotal)).toEqual([0, 2, 1]);
  });

  it('a poller\'s stream limits are those of a token covering its codes, when one does', async () => {
    const plans: PlansDocument = { file: 'plans.yaml', plans: [{ name: 'hk-fast', base: 'all-hk', perSecond: 40, perMinute: 2400 }], tokens: undefined };
    world = await startWorld({ customPlans: plans.plans });
    const { pool } = poolOn(
      world,
      [
        { token: 'demo-hk-fast', plan: 'hk-fast' },
        { token: 'demo-all-us', plan: 'all-us' },
      ],
      plans,
    );
    // The fastest token for a stream of no codes; the all-us one for .US codes, as the stream's first call goes there.
    expect((await pool.streamLimits()).name).toBe('hk-fast');
    expect((await pool.streamLimits(US)).name).toBe('all-us');
    // No token covers both markets: the pool's choice, as before.
    expect((await pool.streamLimits([...US, ...HK])).name).toBe('hk-fast');
  });
});

