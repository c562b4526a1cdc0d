/**
 * The token pool against the real emulator on loopback, on one frozen (virtual) clock: each token
 * stays inside its own plan as the emulator counts it, streams stick to their token and spread over
 * the pool, and a token whose day is used up hands its streams to another without losing a call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenPool, manualSleep, seededRandom, type PoolToken, type RequestInfo, type TokenPool } from '../../src/api/index.js';
import { PLANS } from '../../src/api/plans.js';
import { QuotaExhaustedError } from '../../src/core/errors.js';
import type { PlansDocument } from '../../src/core/plans-file.js';
import { theoreticalLastAdmission, windowViolations } from '../helpers/sliding-window-oracle.js';
import { startWorld, type World } from './helpers/emulator.js';

// Tokens with characters a URL must escape: the pool and the emulator must agree on them.
const TOKEN_A = 'pool-A:x,y=1/+%';
const TOKEN_B = 'pool-B tok€n';

let world: World | undefined;
const pools: TokenPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await world?.close();
  world = undefined;
});

interface Sent extends RequestInfo {
  token: number;
  stream: number;
}

function poolOn(w: World, tokens: PoolToken[], plans?: PlansDocument, hook?: (info: RequestInfo, token: number) => void) {
  const sent: Sent[] = [];
  let current = -1;
  const pool = createTokenPool({
    baseUrl: w.emu.url,
    tokens,
    ...(plans ? { plans } : {}),
    stateDir: w.stateDir,
    clock: w.clock,
    sleep: manualSleep(w.clock),
    retry: { random: seededRandom(7) },
    onRequest: (info, token) => {
      sent.push({ ...info, token, stream: current });
      hook?.(info, token);
    },
  });
  pools.push(pool);
  return { pool, sent, setStream: (s: number) => (current = s) };
}

/** `streams` streams of `perStream` K-line requests each, `depth` of a stream's in flight at once, every stream with its own signal. */
async function drive(pool: TokenPool, streams: number, perStream: number, depth = 2): Promise<Map<AbortSignal, number>> {
  const codes = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'USDJPY', 'Silver', 'USOIL', 'SHIBUSDT'];
  const signals = new Map<AbortSignal, number>();
  // Every stream to its end (a failed one stops only itself), then the first failure, if any.
  const settled = await Promise.allSettled(
    Array.from({ length: streams }, async (_, s) => {
      const signal = new AbortController().signal;
      signals.set(signal, s);
      let left = perStream;
      const lane = async () => {
        while (left > 0) {
          left--;
          await pool.kline({ code: codes[s % codes.length]!, klineType: 1, count: 5 }, signal);
        }
      };
      await Promise.all(Array.from({ length: depth }, lane));
    }),
  );
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return signals;
}

describe('token pool against the emulator', () => {
  it('two professional tokens: each inside its own plan, streams spread evenly, twice one token\'s throughput', async () => {
    world = await startWorld({ plans: [{ token: TOKEN_A, plan: 'professional' }, { token: TOKEN_B, plan: 'professional' }] });
    const { pool, sent } = poolOn(world, [
      { token: TOKEN_A, plan: 'professional' },
      { token: TOKEN_B, plan: 'professional' },
    ]);
    const t0 = world.clock.now();
    const n = 8 * 60;
    await drive(pool, 8, 60);
    const elapsed = world.clock.now() - t0;

    // Measured at the emulator: what each token used, and not one 429 (a request over a plan's window would be one).
    const usage = pool.tokenUsage();
    expect(world.emu.usage(TOKEN_A)?.day.used).toBe(usage[0]!.requestsTotal);
    expect(world.emu.usage(TOKEN_B)?.day.used).toBe(usage[1]!.requestsTotal);
    expect(usage[0]!.requestsTotal + usage[1]!.requestsTotal).toBe(n);
    expect(sent.filter((i) => i.outcome !== 'ok')).toEqual([]);
    expect(usage.map((u) => u.rateLimited)).toEqual([0, 0]);
    // And by the independent oracle, token by token, on the stamps the client sent at.
    for (const token of [0, 1]) {
      const times = sent.filter((i) => i.token === token).map((i) => i.sentAt - t0);
      expect(windowViolations(times, PLANS.professional.perSecond.limit, PLANS.professional.perSecond.windowMs)).toBe(0);
    }
    // Four streams each, all of a stream's requests on one token.
    expect(usage.map((u) => u.streams)).toEqual([4, 4]);
    expect(usage.map((u) => u.requestsTotal)).toEqual([n / 2, n / 2]);
    expect(usage.map((u) => u.rows)).toEqual([(n / 2) * 5, (n / 2) * 5]);
    // Twice one token's throughput: the time one professional token needs for half the requests.
    // Two clients move one virtual clock, each after its own requests were answered (bounded in
    // real time): on a loaded machine one may move it while the other's answer is on the wire,
    // which stamps that request a window later. So: at least the theoretical time, at most one
    // per-second window more, and half of what one token needs for all of them.
    const professional = [PLANS.professional.perSecond, PLANS.professional.perMinute];
    const half = theoreticalLastAdmission(n / 2, professional);
    expect(elapsed).toBeGreaterThanOrEqual(half);
    expect(elapsed).toBeLessThanOrEqual(half + PLANS.professional.perSecond.windowMs);
    expect(elapsed * 2).toBeLessThanOrEqual(theoreticalLastAdmission(n, professional) + 2 * PLANS.professional.perSecond.windowMs);
  });

  it('a stream sticks to its token: never round-robin per request', async () => {
    world = await startWorld({ plans: [{ token: TOKEN_A, plan: 'professional' }, { token: TOKEN_B, plan: 'premium' }] });
    const { pool } = poolOn(world, [
      { token: TOKEN_A, plan: 'professional' },
      { token: TOKEN_B, plan: 'premium' },
    ]);
    const seen = new Map<AbortSignal, Set<number>>();
    const tokenOf = (signal: AbortSignal) => {
      const before = pool.tokenUsage().map((u) => u.requestsTotal);
      return async () => {
        const after = pool.tokenUsage().map((u) => u.requestsTotal);
        const used = after.findIndex((v, i) => v > before[i]!);
        if (!seen.has(signal)) seen.set(signal, new Set());
        seen.get(signal)!.add(used);
      };
    };
    const signals = [0, 1, 2].map(() => new AbortController().signal);
    for (let round = 0; round < 10; round++) {
      for (const signal of signals) {
        const note = tokenOf(signal);
        await pool.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal);
        await note();
      }
    }
    for (const signal of signals) expect(seen.get(signal)!.size).toBe(1);
    // Streams by rate: the professional token (20/s) takes two of three, the premium one (10/s) one.
    const usage = pool.tokenUsage();
    expect(usage.map((u) => u.plan)).toEqual(['professional', 'premium']);
    expect(usage.map((u) => u.requestsTotal)).toEqual([20, 10]);
  });

  it('a token whose daily quota is used up hands its streams to the other; nothing is lost', async () => {
    const plans: PlansDocument = { file: 'plans.yaml', plans: [{ name: 'tiny', base: 'professional', perDay: 25 }], tokens: undefined };
    world = await startWorld({ customPlans: plans.plans, plans: [{ token: TOKEN_A, plan: 'tiny' }, { token: TOKEN_B, plan: 'professional' }] });
    const { pool, sent } = poolOn(
      world,
      [
        { token: TOKEN_A, plan: 'tiny' },
        { token: TOKEN_B, plan: 'professional' },
      ],
      plans,
    );
    await drive(pool, 4, 30);
    const usage = pool.tokenUsage();
    // Token A stopped at its day's 25, measured at the emulator, without a single refusal there.
    expect(world.emu.usage(TOKEN_A)?.day.used).toBe(25);
    expect(usage[0]).toMatchObject({ requestsTotal: 25, exhausted: true, streams: 2, streamsHandedOff: 2 });
    expect(usage[1]).toMatchObject({ requestsTotal: 95, exhausted: false, streams: 2, streamsTakenOver: 2 });
    expect(world.emu.usage(TOKEN_B)?.day.used).toBe(95);
    expect(sent.filter((i) => i.outcome !== 'ok')).toEqual([]);
    expect(usage[0]!.rows + usage[1]!.rows).toBe(4 * 30 * 5);
    const [a, b] = await pool.tokenQuotas();
    expect([a!.remaining, b!.remaining]).toEqual([0, PLANS.professional.perDay - 95]);
  });

  it('a token held by a 429 (another process on it) hands the stream over at its next call', async () => {
    world = await startWorld({ plans: [{ token: TOKEN_A, plan: 'professional' }, { token: TOKEN_B, plan: 'professional' }] });
    // Another process on token A has just used its whole second: the pool's limiter cannot know.
    const other = world.client('professional', { token: TOKEN_A }).client;
    await Promise.all(Array.from({ length: 20 }, () => other.kline({ code: 'EURUSD', klineType: 1, count: 1 })));
    const signal = new AbortController().signal;
    let second: Promise<unknown> | undefined;
    const { pool, sent } = poolOn(
      world,
      [
        { token: TOKEN_A, plan: 'professional' },
        { token: TOKEN_B, plan: 'professional' },
      ],
      undefined,
      (info, token) => {
        // The stream's next call, asked while its token is in the hold the 429 started.
        if (info.outcome === 'rate-limited' && token === 0) second ??= pool.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal);
      },
    );
    await pool.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal);
    await second;
    // The first call waits out its hold on A and is sent again there; the second went to B. (Which
    // of the two is answered first depends on the two clients' waits, not on the pool.)
    expect(sent[0]).toMatchObject({ token: 0, outcome: 'rate-limited' });
    expect(sent.slice(1).map((i) => [i.token, i.outcome]).sort()).toEqual([
      [0, 'ok'],
      [1, 'ok'],
    ]);
    expect(pool.tokenUsage()).toMatchObject([
      { rateLimited: 1, streams: 1, streamsHandedOff: 1 },
      { rateLimited: 0, streams: 0, streamsTakenOver: 1 },
    ]);
  });

  it('every token used up: QuotaExhaustedError with the earliest reset, no request over a cap', async () => {
    const plans: PlansDocument = {
      file: 'plans.yaml',
      plans: [
        { name: 'tiny', base: 'professional', perDay: 5 },
        { name: 'small', base: 'professional', perDay: 7 },
      ],
      tokens: undefined,
    };
    world = await startWorld({ customPlans: plans.plans, plans: [{ token: TOKEN_A, plan: 'tiny' }, { token: TOKEN_B, plan: 'small' }] });
    const { pool } = poolOn(
      world,
      [
        { token: TOKEN_A, plan: 'tiny' },
        { token: TOKEN_B, plan: 'small' },
      ],
      plans,
    );
    const error = await drive(pool, 2, 20, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(world.emu.usage(TOKEN_A)?.day.used).toBe(5);
    expect(world.emu.usage(TOKEN_B)?.day.used).toBe(7);
    expect(pool.tokenUsage().map((u) => u.exhausted)).toEqual([true, true]);
    // After midnight (UTC, both sides) the same pool takes its tokens up again.
    world.clock.set(Date.parse('2026-03-03T00:00:01.000Z'));
    await pool.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, new AbortController().signal);
    expect(pool.tokenUsage().map((u) => u.exhausted)).toEqual([false, false]);
    expect(world.emu.usage(TOKEN_A)?.day).toMatchObject({ date: '2026-03-03', used: 1 });
  });

  it('no token in any message, counter or quota file name', async () => {
    world = await startWorld({ plans: [{ token: TOKEN_A, plan: 'professional' }, { token: TOKEN_B, plan: 'professional' }] });
    const { pool } = poolOn(world, [
      { token: TOKEN_A, plan: 'professional' },
      { token: TOKEN_B, plan: 'professional' },
    ]);
    await drive(pool, 2, 3);
    const error = await pool.kline({ code: 'NOPE', klineType: 1, count: 1 }).catch((e: unknown) => e);
    const text = JSON.stringify({ usage: pool.tokenUsage(), quotas: await pool.tokenQuotas(), error: String(error), stack: (error as Error).stack });
    for (const t of [TOKEN_A, TOKEN_B, encodeURIComponent(TOKEN_A), encodeURIComponent(TOKEN_B)]) expect(text).not.toContain(t);
    expect(pool.tokenUsage().map((u) => u.token)).toEqual(['pool…', 'pool…']);
  });
});
