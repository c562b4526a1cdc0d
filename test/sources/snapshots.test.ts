import { afterEach, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import type { RawDepth, RawTrade } from '../../src/core/records.js';
import { depthSnapshot, depthSnapshotConfigSchema } from '../../src/sources/depth-snapshot/index.js';
import { tradeSnapshot, tradeSnapshotConfigSchema } from '../../src/sources/trade-snapshot/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const CRYPTO = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT'];
const FOREX = ['EURUSD', 'USDJPY', 'GOLD', 'Silver', 'USOIL', 'US500'];
const STOCKS = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ'];

describe('trade-snapshot', () => {
  it('free plan: 5 codes a request, family by family; every code delivered, stamped fetched_at', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('free');
    const codes = [...CRYPTO, ...FOREX, ...STOCKS];
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes }), world.env(client));
    const run = await drain<RawTrade>(src, world.clock);
    expect(run.records.map((r) => r.tick.code).sort()).toEqual([...codes].sort());
    // 9 non-stock codes → 2 requests; 6 stock codes → 2 requests.
    expect(client.requestCounts()).toEqual({ '/quote-b-api/trade-tick': 2, '/quote-stock-b-api/trade-tick': 2 });
    // Each record names the endpoint it was asked from, as called (it becomes the file's quotelake.source_endpoint).
    const endpointOf = (code: string) => run.records.find((r) => r.tick.code === code)?.source;
    expect([endpointOf('BTCUSDT'), endpointOf('EURUSD'), endpointOf('AAPL.US'), endpointOf('700.HK')]).toEqual([
      '/quote-b-api/trade-tick',
      '/quote-b-api/trade-tick',
      '/quote-stock-b-api/trade-tick',
      '/quote-stock-b-api/trade-tick',
    ]);
    // Free: one request per 10 s, so the four requests took 30 s of the clock.
    const t0 = Date.parse('2026-03-03T15:00:00.000Z');
    expect(world.clock.now() - t0).toBe(30_000);
    // fetched_at is the time of each row's own answer, not the round's end: four answers 10 s apart,
    // each of one endpoint, 5 + 4 non-stock codes and 5 + 1 stock codes.
    const byAnswer = new Map<number, RawTrade[]>();
    for (const r of run.records) byAnswer.set(r.fetchedAtMs - t0, [...(byAnswer.get(r.fetchedAtMs - t0) ?? []), r]);
    expect([...byAnswer.keys()].sort((a, b) => a - b)).toEqual([0, 10_000, 20_000, 30_000]);
    for (const rows of byAnswer.values()) expect(new Set(rows.map((r) => r.source)).size).toBe(1);
    expect([...byAnswer.values()].map((rows) => `${rows[0]!.source} ${rows.length}`).sort()).toEqual([
      '/quote-b-api/trade-tick 4',
      '/quote-b-api/trade-tick 5',
      '/quote-stock-b-api/trade-tick 1',
      '/quote-stock-b-api/trade-tick 5',
    ]);
  });

  it('an invalid code is reported by name and the other codes are still delivered', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('professional');
    const codes = ['BTCUSDT', 'NOPE', 'ETHUSDT', 'EURUSD', 'GOLD'];
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes }), world.env(client));
    const run = await drain<RawTrade>(src, world.clock);
    expect(run.records.map((r) => r.tick.code).sort()).toEqual(['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD']);
    const snap = run.events.snapshot();
    expect(snap.notes.some((n) => n.includes('NOPE') && n.includes('invalid'))).toBe(true);
    // A code is not a row: no record came for it, so none is counted as rejected (issue 15).
    expect(snap.rows.trade?.rejected ?? 0).toBe(0);
  });

  it('every N seconds for a duration: rounds spaced on the clock', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('basic');
    const t0 = world.clock.now();
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'AAPL.US'], everySeconds: 10, durationSeconds: 60 }), world.env(client));
    const run = await drain<RawTrade>(src, world.clock);
    expect(run.batches).toHaveLength(6);
    const rounds = [...new Set(run.records.map((r) => r.fetchedAtMs - t0))];
    expect(rounds[0]).toBeLessThan(2000);
    expect(rounds.at(-1)).toBeGreaterThanOrEqual(50_000);
    expect(run.records).toHaveLength(12);
  });
});

describe('rounds the plan cannot fit', () => {
  it('free, 9 codes in two families every 10 s for 25 s: the rounds pushed past the end are named in a note', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('free');
    const codes = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT', 'EURUSD', 'GBPUSD', 'AAPL.US', 'MSFT.US', 'TSLA.US'];
    const src = tradeSnapshot.create(tradeSnapshotConfigSchema.parse({ codes, everySeconds: 10, durationSeconds: 25 }), world.env(client));
    const run = await drain<RawTrade>(src, world.clock);
    // Free admits one request per 10 s and takes five codes a request: a round is 3 requests, 30 s.
    expect(run.batches.length).toBeLessThan(3);
    const { notes, shortfalls } = run.events.snapshot();
    expect(shortfalls).toBe(0);
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^trade-snapshot: ${3 - run.batches.length} of 3 rounds did not start within durationSeconds 25: the plan's rate limit`))]);
  });
});

describe('depth-snapshot', () => {
  it('many codes in one request per family on professional; book depth per class', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('professional');
    const codes = [...CRYPTO, ...FOREX, ...STOCKS];
    const src = depthSnapshot.create(depthSnapshotConfigSchema.parse({ codes }), world.env(client));
    const run = await drain<RawDepth>(src, world.clock);
    expect(client.requestCounts()).toEqual({ '/quote-b-api/depth-tick': 1, '/quote-stock-b-api/depth-tick': 1 });
    expect(new Set(run.records.map((r) => `${r.tick.code} ${r.source}`))).toEqual(
      new Set(codes.map((c) => `${c} ${STOCKS.includes(c) ? '/quote-stock-b-api' : '/quote-b-api'}/depth-tick`)),
    );
    expect(run.records).toHaveLength(codes.length);
    const btc = run.records.find((r) => r.tick.code === 'BTCUSDT')!;
    expect(btc.tick).toEqual(world.market.depth(findProductOrThrow('BTCUSDT'), world.clock.now()));
  });
});

function findProductOrThrow(code: string) {
  const p = findProduct(code);
  if (!p) throw new Error(code);
  return p;
}
