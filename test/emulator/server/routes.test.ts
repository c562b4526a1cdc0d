import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { klineQuery, startHarness, tickQuery, type Harness } from './harness.js';
import { haltCounts } from './stand-ins.js';

const fixture = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../../fixtures/api/${name}`, import.meta.url), 'utf8'));

/** Same keys (recursively, first element of arrays) and same JSON types. */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shapeOf(v[0])];
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, shapeOf(x)]),
    );
  }
  return v === null ? 'null' : typeof v;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, 60_000);
});
afterAll(async () => h.close());

const TOKEN = 'demo-professional';

describe('market-data routes, both families', () => {
  it('serves /kline on the stock family with the documented shape and trace echo', async () => {
    const r = await h.market('stock', 'kline', TOKEN, klineQuery('AAPL.US', { kline_type: 8 }, 'trace-abc'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.json.ret).toBe(200);
    expect(r.json.msg).toBe('ok');
    expect(r.json.trace).toBe('trace-abc');
    expect(r.json.data.code).toBe('AAPL.US');
    expect(r.json.data.kline_type).toBe(8);
    expect(r.json.data.kline_list).toHaveLength(2);
    expect(shapeOf(r.json)).toEqual(shapeOf(fixture('kline-stock.json')));
  });

  it('serves /kline on the non-stock family, end timestamps for crypto', async () => {
    const r = await h.market('non-stock', 'kline', TOKEN, klineQuery('BTCUSDT', { kline_timestamp_end: 1763535660 }));
    expect(r.json.ret).toBe(200);
    expect(r.json.data.kline_list.at(-1).timestamp).toBe('1763535660');
    expect(shapeOf(r.json)).toEqual(shapeOf(fixture('kline-crypto.json')));
  });

  it('caps query_kline_num above 500 to 500 (W5)', async () => {
    const r = await h.market('non-stock', 'kline', TOKEN, klineQuery('EURUSD', { query_kline_num: 501 }));
    expect(r.json.ret).toBe(200);
    expect(r.json.data.kline_list).toHaveLength(500);
  });

  for (const family of ['stock', 'non-stock'] as const) {
    const codes = family === 'stock' ? ['857.HK', 'AAPL.US'] : ['EURUSD', 'GOLD'];
    it(`serves /depth-tick and /trade-tick on ${family}`, async () => {
      const d = await h.market(family, 'depth-tick', TOKEN, tickQuery(codes, 'dtr'));
      expect(d.json).toMatchObject({ ret: 200, msg: 'ok', trace: 'dtr' });
      expect(d.json.data.tick_list.map((t: { code: string }) => t.code)).toEqual(codes);
      expect(shapeOf(d.json)).toEqual(shapeOf(fixture('depth-tick.json')));
      const t = await h.market(family, 'trade-tick', TOKEN, tickQuery(codes, 'ttr'));
      expect(t.json).toMatchObject({ ret: 200, msg: 'ok', trace: 'ttr' });
      expect(t.json.data.tick_list.map((x: { code: string }) => x.code)).toEqual(codes);
      expect(shapeOf(t.json)).toEqual(shapeOf(fixture('trade-tick.json')));
    });
    it(`serves /batch-kline (POST) on ${family}`, async () => {
      const r = await h.batch(family, TOKEN, {
        trace: 'bk',
        data: {
          data_list: codes.map((code) => ({
            code,
            kline_type: 1,
            kline_timestamp_end: 0,
            query_kline_num: 1,
            adjust_type: 0,
          })),
        },
      });
      expect(r.json).toMatchObject({ ret: 200, msg: 'ok', trace: 'bk' });
      expect(r.json.data.kline_list.map((x: { code: string }) => x.code)).toEqual(codes);
      expect(r.json.data.kline_list[0].kline_data).toHaveLength(1);
      expect(shapeOf(r.json)).toEqual(shapeOf(fixture('batch-kline.json')));
    });
  }
});

describe('market-data errors (W4-W9, exact ret and msg, data {})', () => {
  const expectRet = (r: { json: any }, ret: number, msg: string, trace?: string) => {
    expect(r.json.ret).toBe(ret);
    expect(r.json.msg).toBe(msg);
    expect(r.json.data).toEqual({});
    if (trace !== undefined) expect(r.json.trace).toBe(trace);
    expect(shapeOf(r.json)).toEqual(shapeOf(fixture('error-market.json')));
  };

  it('401 for an unknown token, with the trace', async () => {
    expectRet(await h.market('stock', 'kline', 'nope', klineQuery('AAPL.US', {}, 'tr1')), 401, 'token invalid', 'tr1');
    expectRet(await h.get('/quote-stock-b-api/kline', { query: JSON.stringify(klineQuery('AAPL.US')) }), 401, 'token invalid');
  });
  it('601 when query is missing or empty', async () => {
    expectRet(await h.get('/quote-stock-b-api/kline', { token: TOKEN }), 601, 'body empty', '');
    expectRet(await h.get('/quote-b-api/depth-tick', { token: TOKEN, query: '' }), 601, 'body empty');
    expectRet(await h.batch('stock', TOKEN, ''), 601, 'body empty');
  });
  it('400 header for unparsable or wrong first level', async () => {
    expectRet(await h.market('stock', 'kline', TOKEN, '{not json'), 400, 'request header param invalid', '');
    expectRet(await h.market('stock', 'kline', TOKEN, '[1,2]'), 400, 'request header param invalid');
    expectRet(await h.market('stock', 'kline', TOKEN, { trace: 'x' }), 400, 'request header param invalid', 'x');
    expectRet(await h.market('stock', 'kline', TOKEN, { trace: 5, data: {} }), 400, 'request header param invalid');
    expectRet(await h.market('stock', 'kline', TOKEN, { trace: 'y', data: [] }), 400, 'request header param invalid', 'y');
  });
  it('400 data for wrong data fields (W4, W5, W6)', async () => {
    const bad: Record<string, unknown>[] = [
      { kline_type: '1' },
      { kline_type: 0 },
      { kline_type: 11 },
      { kline_type: 6 }, // stock: no 2h bars
      { kline_type: 7 },
      { adjust_type: 1 },
      { query_kline_num: 0 },
      { query_kline_num: -3 },
      { query_kline_num: 1.5 },
      { kline_timestamp_end: 1763535660 }, // W4: stock
      { code: 42 },
    ];
    for (const extra of bad) {
      expectRet(await h.market('stock', 'kline', TOKEN, klineQuery('AAPL.US', extra, 'd')), 400, 'request data param invalid', 'd');
    }
    // A code of another type in a tick request too; an absent one is no code (600).
    expectRet(await h.market('stock', 'trade-tick', TOKEN, { trace: 't', data: { symbol_list: [{ code: 123 }] } }), 400, 'request data param invalid', 't');
    expectRet(await h.market('stock', 'depth-tick', TOKEN, { trace: 't', data: { symbol_list: [{}] } }), 600, 'code invalid', 't');
    // 2h bars are fine on non-stock; a missing field is not
    expect((await h.market('non-stock', 'kline', TOKEN, klineQuery('EURUSD', { kline_type: 6 }))).json.ret).toBe(200);
    const { adjust_type: _, ...noAdjust } = klineQuery('EURUSD').data;
    expectRet(await h.market('non-stock', 'kline', TOKEN, { trace: 'm', data: noAdjust }), 400, 'request data param invalid');
  });
  it('600 for unknown code, wrong case, and the wrong family', async () => {
    expectRet(await h.market('stock', 'kline', TOKEN, klineQuery('NOPE.US')), 600, 'code invalid');
    expectRet(await h.market('stock', 'kline', TOKEN, klineQuery('aapl.us')), 600, 'code invalid');
    expectRet(await h.market('non-stock', 'kline', TOKEN, klineQuery('SILVER')), 600, 'code invalid');
    expectRet(await h.market('non-stock', 'kline', TOKEN, klineQuery('AAPL.US')), 600, 'code invalid');
    expectRet(await h.market('stock', 'kline', TOKEN, klineQuery('EURUSD')), 600, 'code invalid');
  });
  it('600 for the whole batch when one code is invalid (W8)', async () => {
    expectRet(await h.market('stock', 'depth-tick', TOKEN, tickQuery(['AAPL.US', 'BAD.US', '700.HK'])), 600, 'code invalid');
    expectRet(await h.market('stock', 'trade-tick', TOKEN, tickQuery(['AAPL.US', 'EURUSD'])), 600, 'code invalid');
    expectRet(await h.market('stock', 'trade-tick', TOKEN, { trace: 'n', data: { symbol_list: [{}] } }), 600, 'code invalid');
  });
  it('604 outside an All-* plan scope', async () => {
    expectRet(await h.market('stock', 'kline', 'demo-all-hk', klineQuery('AAPL.US')), 604, 'code unauthorized');
    expect((await h.market('stock', 'kline', 'demo-all-hk', klineQuery('700.HK'))).json.ret).toBe(200);
    expectRet(await h.market('non-stock', 'kline', 'demo-all-us', klineQuery('EURUSD')), 604, 'code unauthorized');
    expect((await h.market('stock', 'depth-tick', 'demo-all-cn', tickQuery(['600000.SH', '000001.SZ']))).json.ret).toBe(200);
    expectRet(await h.market('stock', 'depth-tick', 'demo-all-cn', tickQuery(['600000.SH', 'AAPL.US'])), 604, 'code unauthorized');
  });
  it('Free serves only the first 5 codes of a depth/trade batch (W9)', async () => {
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ', 'NOT.VALID'];
    const r = await h.market('stock', 'trade-tick', 'demo-free', tickQuery(codes));
    expect(r.json.ret).toBe(200);
    expect(r.json.data.tick_list.map((t: { code: string }) => t.code)).toEqual(codes.slice(0, 5));
  });
  it('605 over the plan /batch-kline item cap; 400 for query_kline_num 3', async () => {
    const item = (code: string, n = 1) => ({ code, kline_type: 1, kline_timestamp_end: 0, query_kline_num: n, adjust_type: 0 });
    const six = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ'].map((c) => item(c));
    expectRet(await h.batch('stock', 'demo-free', { trace: 'f', data: { data_list: six } }), 605, 'too many requests', 'f');
    expect((await h.batch('stock', 'demo-free', { trace: 'f', data: { data_list: six.slice(0, 5) } })).json.ret).toBe(200);
    const many = Array.from({ length: 501 }, () => item('AAPL.US'));
    expectRet(await h.batch('stock', TOKEN, { trace: 'g', data: { data_list: many } }), 605, 'too many requests');
    expect((await h.batch('stock', TOKEN, { trace: 'g', data: { data_list: many.slice(0, 500) } })).json.ret).toBe(200);
    expectRet(await h.batch('stock', TOKEN, { trace: 'h', data: { data_list: [item('AAPL.US', 3)] } }), 400, 'request data param invalid');
    expectRet(await h.batch('stock', TOKEN, { trace: 'h', data: { data_list: [item('EURUSD')] } }), 600, 'code invalid');
  });
  it('414 above 8 KiB of request-target, and a proper JSON 431 above 64 KiB', async () => {
    const codes = Array.from({ length: 400 }, (_, i) => `AAPL.US`);
    const r = await h.market('stock', 'depth-tick', TOKEN, tickQuery(codes));
    expect(r.status).toBe(414);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.json.error).toMatch(/over 8192/);
    const huge = await h.get('/quote-stock-b-api/kline', { token: TOKEN, query: 'x'.repeat(70_000) });
    expect(huge.status).toBe(431);
    expect(huge.json.error).toMatch(/too large/);
    expect((await h.market('stock', 'kline', TOKEN, klineQuery('AAPL.US'))).json.ret).toBe(200);
  });
});

describe('suspension routes (S1, S5)', () => {
  it('serves the whole year without paging fields', async () => {
    const r = await h.get('/api/suspension/sse', { token: TOKEN });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.json.success).toBe(true);
    expect(r.json.timestamp).toBe(new Date(h.clock.now()).toISOString().slice(0, 19));
    expect(r.json.totalCount).toBe(7);
    expect(r.json.data).toHaveLength(7);
    expect(Object.keys(r.json)).toEqual(['success', 'timestamp', 'totalCount', 'data']);
  });
  it('pages with both page and size', async () => {
    const r = await h.get('/api/suspension/sse', { token: TOKEN, page: '2', size: '3' });
    expect(r.json).toMatchObject({ success: true, totalCount: 7, totalPages: 3, currentPage: 2, currentSize: 3 });
    expect(r.json.data.map((x: { symbol: string }) => x.symbol)).toEqual(['S3', 'S4', 'S5']);
    expect(shapeOf({ ...r.json, data: [] })).toEqual(shapeOf({ ...fixture('suspension-paged.json'), data: [] }));
    const last = await h.get('/api/suspension/sse', { token: TOKEN, page: '3', size: '3' });
    expect(last.json.currentSize).toBe(1);
    const past = await h.get('/api/suspension/sse', { token: TOKEN, page: '9', size: '3' });
    expect(past.json).toMatchObject({ success: true, totalCount: 7, totalPages: 3, currentPage: 9, currentSize: 0, data: [] });
    const empty = await h.get('/api/suspension/nasdaq', { token: TOKEN, page: '1', size: '10' });
    expect(empty.json).toMatchObject({ success: true, totalCount: 0, totalPages: 0, currentPage: 1, currentSize: 0, data: [] });
  });
  it('HTTP 500 {success:false,error} for every error', async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ token: 'nope' }, 'nyse', /token invalid/],
      [{ token: TOKEN, page: '1' }, 'nyse', /together/],
      [{ token: TOKEN, size: '1' }, 'nyse', /together/],
      [{ token: TOKEN, page: '0', size: '1' }, 'nyse', /page/],
      [{ token: TOKEN, page: '', size: '1' }, 'nyse', /page/],
      [{ token: TOKEN, page: '1', size: '0' }, 'nyse', /size/],
      [{ token: TOKEN, page: '1', size: '501' }, 'nyse', /size/],
      [{ token: TOKEN, page: 'x', size: '5' }, 'nyse', /page/],
      [{ token: 'demo-all-hk' }, 'sse', /exchange not covered by plan/],
      [{ token: 'demo-all-cn' }, 'nyse', /exchange not covered by plan/],
    ];
    for (const [params, ex, re] of cases) {
      const r = await h.get(`/api/suspension/${ex}`, params);
      expect(r.status).toBe(500);
      expect(r.json.success).toBe(false);
      expect(r.json.error).toMatch(re);
      expect(shapeOf(r.json)).toEqual(shapeOf(fixture('error-suspension.json')));
    }
    // Percent-encoding that does not decode is refused as sent, not taken for an absent page.
    const mangled = await fetch(`${h.emu.url}/api/suspension/nyse?token=${TOKEN}&page=%ZZ&size=1`);
    expect(mangled.status).toBe(500);
    expect(((await mangled.json()) as { error: string }).error).toBe('invalid page: "%ZZ" (must be an integer >= 1)');
    expect((await h.get('/api/suspension/sse', { token: 'demo-all-cn' })).json.success).toBe(true);
    expect((await h.get('/api/suspension/nasdaq', { token: 'demo-all-us' })).json.success).toBe(true);
  });

  it('a page of 16 digits (up to 2^53 - 1) is past the end: an empty page with the true totals; only a larger one is refused', async () => {
    const far = await h.get('/api/suspension/sse', { token: TOKEN, page: '9007199254740991', size: '500' });
    expect(far.status).toBe(200);
    expect(far.json).toMatchObject({ success: true, totalCount: haltCounts.sse, data: [], totalPages: 1, currentPage: 9007199254740991, currentSize: 0 });
    const over = await h.get('/api/suspension/sse', { token: TOKEN, page: '9007199254740992', size: '500' });
    expect(over.status).toBe(500);
    expect(over.json).toEqual({ success: false, error: 'invalid page: "9007199254740992" (must be at most 9007199254740991)' });
  });
});

describe('unknown paths and methods', () => {
  it('404 JSON, 405 JSON with Allow', async () => {
    const nf = await h.get('/quote-stock-b-api/klines');
    expect(nf.status).toBe(404);
    expect(nf.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(nf.json.error).toMatch(/no such path/);
    // An exchange the service has not: a 404 in the halt endpoints' error shape (S5).
    const lse = await h.get('/api/suspension/lse');
    expect([lse.status, lse.json]).toEqual([404, { success: false, error: 'no such path: /api/suspension/lse' }]);
    expect(nf.json.success).toBeUndefined();
    expect((await h.get('/_emulator/clock')).status).toBe(200);
    const m = await h.raw('/quote-stock-b-api/kline', { method: 'POST', body: '{}' });
    expect(m.status).toBe(405);
    expect(m.headers.allow).toBe('GET');
    const g = await h.get('/quote-b-api/batch-kline');
    expect(g.status).toBe(405);
    expect(g.headers.allow).toBe('POST');
  });

  it("a halt endpoint's refusals carry success: false (S5), a market endpoint's do not", async () => {
    const post = await h.raw('/api/suspension/nyse', { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.json).toEqual({ success: false, error: 'method POST not allowed on /api/suspension/nyse; use GET' });
    const long = await h.get('/api/suspension/nyse', { token: TOKEN, page: '1', size: '1', pad: 'x'.repeat(9000) });
    expect(long.status).toBe(414);
    expect(long.json.success).toBe(false);
    expect(long.json.error).toMatch(/over 8192/);
    const market = await h.raw('/quote-stock-b-api/kline', { method: 'POST', body: '{}' });
    expect(market.json.success).toBeUndefined();
  });
});
