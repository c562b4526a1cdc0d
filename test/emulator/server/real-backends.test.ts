import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { startEmulator } from '../../../src/emulator/server.js';
import { klineQuery, startHarness, tickQuery, type Harness } from './harness.js';

const fixture = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../../fixtures/api/${name}`, import.meta.url), 'utf8'));

/** Keys and JSON types, recursively (first element of arrays). */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shapeOf(v[0])];
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shapeOf((v as Record<string, unknown>)[k])]),
    );
  }
  return v === null ? 'null' : typeof v;
}

let h: Harness;
beforeAll(async () => {
  // The real catalog, synthetic market and halt archive (no backends option), on a manual clock.
  h = await startHarness({ backends: undefined, seed: 3 }, 60_000);
});
afterAll(async () => h.close());

const T = 'demo-professional';

describe('the default backends through HTTP, against the documented examples', () => {
  it('an end timestamp is served for forex, metals and crypto only: energy, CFD indexes and commodities refuse it like stocks (spec 4.2)', async () => {
    const end = Date.parse('2026-03-02T12:00:00Z') / 1000;
    for (const code of ['EURUSD', 'GOLD', 'BTCUSDT']) {
      const r = await h.market('non-stock', 'kline', T, klineQuery(code, { kline_timestamp_end: end }));
      expect(r.json.ret, code).toBe(200);
      expect(Number(r.json.data.kline_list.at(-1).timestamp), code).toBeLessThanOrEqual(end);
    }
    for (const code of ['USOIL', 'US500', 'COPPER']) {
      const r = await h.market('non-stock', 'kline', T, klineQuery(code, { kline_timestamp_end: end }));
      expect(r.json, code).toEqual({ ret: 400, msg: 'request data param invalid', trace: 't-1', data: {} });
      expect((await h.market('non-stock', 'kline', T, klineQuery(code))).json.ret, code).toBe(200);
    }
  });

  it('/kline stock (previous-day close recipe) and crypto', async () => {
    const s = await h.market('stock', 'kline', T, klineQuery('AAPL.US', { kline_type: 8 }));
    expect(s.json.ret).toBe(200);
    expect(s.json.data.kline_list).toHaveLength(2);
    expect(shapeOf(s.json)).toEqual(shapeOf(fixture('kline-stock.json')));
    const c = await h.market('non-stock', 'kline', T, klineQuery('BTCUSDT', { query_kline_num: 500 }));
    expect(c.json.data.kline_list).toHaveLength(500);
    expect(shapeOf(c.json)).toEqual(shapeOf(fixture('kline-crypto.json')));
    const ts = c.json.data.kline_list.map((k: { timestamp: string }) => Number(k.timestamp));
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    // the pre-serialised body is the same JSON as the object
    expect(c.text).toBe(JSON.stringify(c.json));
  });
  it('/depth-tick, /trade-tick, /batch-kline', async () => {
    const d = await h.market('stock', 'depth-tick', T, tickQuery(['857.HK', 'AAPL.US']));
    expect(d.json.ret).toBe(200);
    expect(shapeOf(d.json.data.tick_list[0])).toMatchObject({ code: 'string', seq: 'string', tick_time: 'string' });
    const t = await h.market('stock', 'trade-tick', T, tickQuery(['857.HK', 'AAPL.US']));
    expect(shapeOf(t.json)).toEqual(shapeOf(fixture('trade-tick.json')));
    const b = await h.batch('stock', T, {
      trace: 'b',
      data: { data_list: ['700.HK', 'AAPL.US'].map((code) => ({ code, kline_type: 1, kline_timestamp_end: 0, query_kline_num: 1, adjust_type: 0 })) },
    });
    expect(b.json.ret).toBe(200);
    expect(shapeOf(b.json)).toEqual(shapeOf(fixture('batch-kline.json')));
  });
  it('suspension envelopes and record fields', async () => {
    for (const ex of ['sse', 'nyse', 'nasdaq'] as const) {
      const r = await h.get(`/api/suspension/${ex}`, { token: T });
      expect(r.status).toBe(200);
      expect(Object.keys(r.json)).toEqual(['success', 'timestamp', 'totalCount', 'data']);
      expect(r.json.totalCount).toBe(r.json.data.length);
      expect(r.json.totalCount).toBeGreaterThan(0);
      const allowed = new Set(fixture(`suspension-${ex}.json`).data.flatMap((x: object) => Object.keys(x)));
      if (ex !== 'sse') ['symbolName', 'haltDate', 'pauseThresholdPrice'].forEach((k) => ex === 'nasdaq' || k !== 'pauseThresholdPrice' ? allowed.add(k) : 0);
      for (const rec of r.json.data.slice(0, 50)) {
        for (const k of Object.keys(rec)) expect(allowed.has(k), `${ex} field ${k}`).toBe(true);
      }
      const p = await h.get(`/api/suspension/${ex}`, { token: T, page: '1', size: '2' });
      expect(p.json).toMatchObject({ totalCount: r.json.totalCount, currentPage: 1, currentSize: 2 });
      expect(p.json.data).toEqual(r.json.data.slice(0, 2));
    }
  });
});

describe('startEmulator defaults', () => {
  it('listens on 127.0.0.1 with a free port and the system clock', async () => {
    const emu = await startEmulator();
    try {
      expect(emu.host).toBe('127.0.0.1');
      expect(emu.port).toBeGreaterThan(0);
      expect(emu.url).toBe(`http://127.0.0.1:${emu.port}`);
      expect(emu.clock).not.toBeInstanceOf(ManualClock);
    } finally {
      await emu.close();
    }
  });

  it('closes once: a second close() resolves as the first did', async () => {
    const emu = await startEmulator();
    await Promise.all([emu.close(), emu.close()]);
    await expect(emu.close()).resolves.toBeUndefined();
    await expect(fetch(`${emu.url}/quote-b-api/kline`)).rejects.toThrow();
  });
});
