import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { TokenGrant } from '../../../src/emulator/plans-file.js';
import { klineQuery, startHarness, tickQuery, type Harness } from '../server/harness.js';

/** A Wednesday, frozen: crypto trades, US stocks are closed (07:00 New York). */
const NOW = '2026-03-04T12:00:30.000Z';
const NOW_SEC = Date.parse(NOW) / 1000;

const grants: TokenGrant[] = [
  { token: 'b-short', plan: 'professional', behaviours: 'short-pages=1' },
  { token: 'b-missing', plan: 'professional', behaviours: 'missing-bars=0.2' },
  { token: 'b-desc', plan: 'professional', behaviours: 'descending' },
  { token: 'b-shuffle', plan: 'professional', behaviours: 'shuffle' },
  { token: 'b-overlap', plan: 'professional', behaviours: 'overlap' },
  { token: 'b-forms', plan: 'professional', behaviours: 'number-forms' },
  { token: 'b-extra', plan: 'professional', behaviours: 'extra-fields' },
  { token: 'b-dup', plan: 'professional', behaviours: 'halt-duplicates=1' },
  { token: 'b-omit', plan: 'professional', behaviours: 'omit-codes=0.5' },
  { token: 'b-all', plan: 'professional', behaviours: 'all' },
];
const PLAIN = 'demo-professional';

let h: Harness;
beforeAll(async () => {
  // The real catalog, synthetic market and halt archive; limits off so a frozen clock never throttles.
  h = await startHarness({ backends: undefined, seed: 11, clock: new ManualClock(NOW), plans: grants, limits: false });
});
afterAll(async () => h.close());

type Bar = Record<string, string>;
const kline = async (token: string, code: string, extra: Record<string, unknown> = {}, trace = 't') => {
  const family = code.includes('.') ? 'stock' : 'non-stock';
  const r = await h.market(family, 'kline', token, klineQuery(code, extra, trace));
  expect(r.status).toBe(200);
  expect(r.json.ret).toBe(200);
  return r.json.data.kline_list as Bar[];
};
const ts = (bars: Bar[]): number[] => bars.map((b) => Number(b.timestamp));
const ascending = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
/** A decimal text as an exact canonical value (no float): trailing zeros and a bare point dropped. */
const exact = (t: string): string => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);

describe('off by default: the plain answer is what the ground truth holds', () => {
  it('K-lines of crypto and a stock, forming bar included', async () => {
    const bars = await kline(PLAIN, 'BTCUSDT', { query_kline_num: 500 });
    expect(bars).toHaveLength(500);
    const from = Number(bars[0]!.timestamp);
    expect(h.emu.truth.klines('BTCUSDT', 1, from, NOW_SEC)).toEqual(bars);
    // the newest bar is forming at NOW: closedOnly leaves it out
    expect(h.emu.truth.klines('BTCUSDT', 1, from, NOW_SEC, undefined, { closedOnly: true })).toEqual(bars.slice(0, -1));
    const days = await kline(PLAIN, 'AAPL.US', { kline_type: 8, query_kline_num: 30 });
    expect(h.emu.truth.klines('AAPL.US', 8, Number(days[0]!.timestamp), NOW_SEC)).toEqual(days);
    expect(h.emu.truth.isMissing('BTCUSDT', 1, from)).toBe(false);
  });
  it('halts', async () => {
    const r = await h.get('/api/suspension/nyse', { token: PLAIN });
    expect(r.json.data).toEqual(h.emu.truth.halts('nyse'));
  });
  it('truth rejects what the service would not serve', () => {
    expect(() => h.emu.truth.klines('btcusdt', 1, 0, NOW_SEC)).toThrow(/unknown code/);
    expect(() => h.emu.truth.klines('AAPL.US', 6, 0, NOW_SEC)).toThrow(/kline_type 6/);
  });
});

describe('R1 short pages', () => {
  it('a page holds fewer bars than asked, its newest ones, and older bars exist', async () => {
    const lengths: number[] = [];
    for (const end of [0, NOW_SEC - 3600, NOW_SEC - 7200, NOW_SEC - 86_400]) {
      const page = await kline('b-short', 'BTCUSDT', { query_kline_num: 200, kline_timestamp_end: end });
      const full = await kline(PLAIN, 'BTCUSDT', { query_kline_num: 200, kline_timestamp_end: end });
      expect(page.length).toBeGreaterThanOrEqual(1);
      expect(page.length).toBeLessThan(200);
      expect(page).toEqual(full.slice(200 - page.length));
      lengths.push(page.length);
      const older = await kline('b-short', 'BTCUSDT', { query_kline_num: 5, kline_timestamp_end: Number(page[0]!.timestamp) - 1 });
      expect(older.length).toBeGreaterThan(0);
    }
    expect(new Set(lengths).size).toBeGreaterThan(1);
  });
});

describe('R1 missing bars', () => {
  it('absent in every answer and in the truth; a page still holds its count and spans more time', async () => {
    const page = await kline('b-missing', 'BTCUSDT', { query_kline_num: 300 });
    expect(page).toHaveLength(300);
    const t = ts(page);
    const span = (t[t.length - 1]! - t[0]!) / 60 + 1;
    expect(span).toBeGreaterThan(330);
    const truth = h.emu.truth.klines('BTCUSDT', 1, t[0]!, NOW_SEC, undefined, { token: 'b-missing' });
    expect(truth).toEqual(page);
    const plain = (await kline(PLAIN, 'BTCUSDT', { query_kline_num: 500 })).filter((b) => Number(b.timestamp) >= t[0]!);
    const missing = plain.filter((b) => !t.includes(Number(b.timestamp)));
    expect(missing.length).toBe(plain.length - 300);
    expect(missing.length).toBeGreaterThan(30);
    for (const b of missing) expect(h.emu.truth.isMissing('BTCUSDT', 1, Number(b.timestamp), 'b-missing')).toBe(true);
    // walking back in small pages meets the same bars
    const walked: Bar[] = [];
    let end = 0;
    while (walked.length < 300) {
      const p = await kline('b-missing', 'BTCUSDT', { query_kline_num: 37, kline_timestamp_end: end });
      walked.unshift(...p);
      end = Number(p[0]!.timestamp) - 1;
    }
    expect(walked.slice(-300)).toEqual(page);
    // batch-kline agrees: its newest two are the page's newest two
    const b = await h.batch('non-stock', 'b-missing', {
      trace: 'bk',
      data: { data_list: [{ code: 'BTCUSDT', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 }] },
    });
    expect(b.json.data.kline_list[0].kline_data).toEqual(page.slice(-2));
  });
  it('only intraday series: days are whole', async () => {
    const days = await kline('b-missing', 'BTCUSDT', { kline_type: 8, query_kline_num: 60 });
    expect(days).toEqual(await kline(PLAIN, 'BTCUSDT', { kline_type: 8, query_kline_num: 60 }));
  });
});

describe('R2 order and overlap', () => {
  it('descending: newest first, the same bars', async () => {
    const down = await kline('b-desc', 'ETHUSDT', { query_kline_num: 50 });
    const plain = await kline(PLAIN, 'ETHUSDT', { query_kline_num: 50 });
    expect(down).toEqual([...plain].reverse());
  });
  it('shuffle: any order, the same bars; /batch-kline items shuffled too', async () => {
    const mixed = await kline('b-shuffle', 'ETHUSDT', { query_kline_num: 50 });
    const plain = await kline(PLAIN, 'ETHUSDT', { query_kline_num: 50 });
    expect(ts(mixed)).not.toEqual(ts(plain));
    expect(ascending(ts(mixed))).toEqual(ts(plain));
    const codes = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'EURUSD', 'GOLD', 'USOIL'];
    const body = {
      trace: 'bs',
      data: { data_list: codes.map((code) => ({ code, kline_type: 1, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 })) },
    };
    const b = await h.batch('non-stock', 'b-shuffle', body);
    const got = b.json.data.kline_list.map((i: { code: string }) => i.code);
    expect(got).not.toEqual(codes);
    expect([...got].sort()).toEqual([...codes].sort());
  });
  it('overlap: walking back from the oldest bar minus one second repeats that bar', async () => {
    const first = await kline('b-overlap', 'BTCUSDT', { query_kline_num: 10, kline_timestamp_end: NOW_SEC - 600 });
    const second = await kline('b-overlap', 'BTCUSDT', { query_kline_num: 10, kline_timestamp_end: Number(first[0]!.timestamp) - 1 });
    expect(second[second.length - 1]).toEqual(first[0]);
    expect(second).toHaveLength(10);
    // the newest page (end 0) is the plain one
    expect(await kline('b-overlap', 'BTCUSDT', { query_kline_num: 10 })).toEqual(await kline(PLAIN, 'BTCUSDT', { query_kline_num: 10 }));
  });
});

describe('R4 number forms and R5 extra fields', () => {
  it('every price, volume and turnover keeps its value in another text', async () => {
    const plain = await kline(PLAIN, 'SHIBUSDT', { query_kline_num: 100 });
    const forms = await kline('b-forms', 'SHIBUSDT', { query_kline_num: 100 });
    let differ = 0;
    forms.forEach((bar, i) => {
      for (const [k, v] of Object.entries(bar)) {
        expect(v).toMatch(/^\d+(\.\d+)?$/);
        expect(exact(v)).toBe(exact(plain[i]![k]!));
        if (v !== plain[i]![k]) differ++;
      }
      expect(bar.timestamp).toBe(plain[i]!.timestamp);
    });
    expect(differ).toBeGreaterThan(300);
    const t = await h.market('non-stock', 'trade-tick', 'b-forms', tickQuery(['EURUSD', 'GOLD']));
    const tp = await h.market('non-stock', 'trade-tick', PLAIN, tickQuery(['EURUSD', 'GOLD']));
    for (const [i, tick] of t.json.data.tick_list.entries()) {
      for (const k of ['price', 'volume', 'turnover']) expect(exact(tick[k])).toBe(exact(tp.json.data.tick_list[i][k]));
    }
    const d = await h.market('stock', 'depth-tick', 'b-forms', tickQuery(['700.HK']));
    const dp = await h.market('stock', 'depth-tick', PLAIN, tickQuery(['700.HK']));
    const levels = (x: any) => [...x.bids, ...x.asks].map((l: Record<string, string>) => [exact(l.price!), exact(l.volume!)]);
    expect(levels(d.json.data.tick_list[0])).toEqual(levels(dp.json.data.tick_list[0]));
  });
  it('unknown fields in the envelope, data, bars, ticks, levels, halt envelope and records; the rest unchanged', async () => {
    const strip = (v: unknown, known: Set<string>): unknown => {
      if (Array.isArray(v)) return v.map((x) => strip(x, known));
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(Object.entries(v).filter(([k]) => known.has(k)).map(([k, x]) => [k, strip(x, known)]));
    };
    const keys = (v: unknown, into = new Set<string>()): Set<string> => {
      if (Array.isArray(v)) v.forEach((x) => keys(x, into));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (into.add(k), keys(x, into));
      return into;
    };
    const pairs = [
      [() => h.market('non-stock', 'kline', 'b-extra', klineQuery('BTCUSDT', { query_kline_num: 20 })), () => h.market('non-stock', 'kline', PLAIN, klineQuery('BTCUSDT', { query_kline_num: 20 }))],
      [() => h.market('stock', 'depth-tick', 'b-extra', tickQuery(['700.HK', 'AAPL.US'])), () => h.market('stock', 'depth-tick', PLAIN, tickQuery(['700.HK', 'AAPL.US']))],
      [() => h.get('/api/suspension/nasdaq', { token: 'b-extra', page: '1', size: '20' }), () => h.get('/api/suspension/nasdaq', { token: PLAIN, page: '1', size: '20' })],
    ] as const;
    for (const [withExtra, plainOf] of pairs) {
      const a = (await withExtra()).json;
      const p = (await plainOf()).json;
      const known = keys(p);
      expect(strip(a, known)).toEqual(p);
      const extra = (o: object) => Object.keys(o).filter((k) => !known.has(k));
      expect(extra(a).length).toBeGreaterThan(0);
      if ('data' in a && 'kline_list' in a.data) {
        expect(extra(a.data).length).toBeGreaterThan(0);
        for (const bar of a.data.kline_list) expect(extra(bar).length).toBeGreaterThan(0);
      } else if ('data' in a && 'tick_list' in a.data) {
        for (const tick of a.data.tick_list) for (const l of [...tick.bids, ...tick.asks]) expect(extra(l).length).toBeGreaterThan(0);
      } else for (const rec of a.data) expect(extra(rec).length).toBeGreaterThan(0);
    }
  });
});

describe('R6 halt duplicates and R7 omitted codes', () => {
  it('page p starts with the last record of page p-1; distinct records are the truth', async () => {
    const truth = h.emu.truth.halts('sse');
    const size = 25;
    const pages = Math.ceil(truth.length / size);
    expect(pages).toBeGreaterThan(2);
    const seen: unknown[] = [];
    for (let page = 1; page <= pages; page++) {
      const r = await h.get('/api/suspension/sse', { token: 'b-dup', page: String(page), size: String(size) });
      expect(r.json.totalCount).toBe(truth.length);
      expect(r.json.currentSize).toBe(r.json.data.length);
      if (page > 1) expect(r.json.data[0]).toEqual(seen[seen.length - 1]);
      seen.push(...r.json.data);
    }
    expect(seen.length).toBe(truth.length + pages - 1);
    const distinct = [...new Map(seen.map((x) => [JSON.stringify(x), x])).values()];
    expect(distinct).toEqual(truth);
    const all = await h.get('/api/suspension/sse', { token: 'b-dup' });
    expect(all.json.data).toHaveLength(truth.length + 1);
    expect([...new Map(all.json.data.map((x: unknown) => [JSON.stringify(x), x])).values()]).toEqual(truth);
  });
  it('a depth or trade answer leaves requested codes out, and only those', async () => {
    const codes = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'EURUSD', 'USDJPY', 'GOLD', 'Silver', 'USOIL'];
    let omitted = 0;
    for (let i = 0; i < 6; i++) {
      for (const op of ['depth-tick', 'trade-tick'] as const) {
        const r = await h.market('non-stock', op, 'b-omit', tickQuery(codes, `o${i}`));
        const got = r.json.data.tick_list.map((t: { code: string }) => t.code);
        expect(codes.filter((c) => got.includes(c))).toEqual(got);
        omitted += codes.length - got.length;
      }
    }
    expect(omitted).toBeGreaterThan(10);
    expect(omitted).toBeLessThan(90);
  });
});

describe('all behaviours at once', () => {
  it('reproducible from the seed: the same requests give the same bytes; another seed differs', async () => {
    const run = async (seed: number): Promise<string[]> => {
      const hh = await startHarness({ backends: undefined, seed, clock: new ManualClock(NOW), behaviours: 'all', limits: false });
      try {
        const out: string[] = [];
        for (let i = 0; i < 8; i++) {
          out.push((await hh.market('non-stock', 'kline', PLAIN, klineQuery('BTCUSDT', { query_kline_num: 40, kline_timestamp_end: NOW_SEC - i * 600 }, `r${i}`))).text);
          out.push((await hh.market('non-stock', 'trade-tick', PLAIN, tickQuery(['BTCUSDT', 'EURUSD', 'GOLD', 'USOIL'], `q${i}`))).text);
        }
        out.push((await hh.get('/api/suspension/nyse', { token: PLAIN, page: '2', size: '10' })).text);
        return out;
      } finally {
        await hh.close();
      }
    };
    const a = await run(5);
    expect(await run(5)).toEqual(a);
    expect(await run(6)).not.toEqual(a);
  });
  it('malformed requests still get their errors, never a crash', async () => {
    const bad = [
      h.market('non-stock', 'kline', 'b-all', '{"trace":'),
      h.market('non-stock', 'kline', 'b-all', klineQuery('BTCUSDT', { kline_type: 99 })),
      h.market('non-stock', 'kline', 'b-all', klineQuery('NOPE')),
      h.market('non-stock', 'depth-tick', 'b-all', { trace: 'x', data: { symbol_list: [] } }),
      h.batch('non-stock', 'b-all', '[]'),
      h.get('/api/suspension/sse', { token: 'b-all', page: '0', size: '5' }),
    ];
    const rs = await Promise.all(bad);
    expect(rs.map((r) => r.json?.ret ?? r.status)).toEqual([400, 400, 600, 400, 400, 500]);
    const ok = await kline('b-all', 'BTCUSDT', { query_kline_num: 500, kline_timestamp_end: NOW_SEC - 86_400 * 400 });
    expect(ok.length).toBeGreaterThan(0);
  });
});
