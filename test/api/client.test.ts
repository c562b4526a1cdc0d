import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, QuotaExhaustedError, ResponseShapeError, TransportError } from '../../src/core/errors.js';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { STUB_T0 as T0, STUB_TOKEN as TOKEN, useStubClient } from './helpers/stub-client.js';
import { bar, fail, json, ok, type StubHandler } from './helpers/stub-server.js';

const fixture = useStubClient('ql-client-');
const { setup, closeStub } = fixture;

/** Answers depth/trade requests with one tick per requested code, except `drop` codes. */
const tickHandler =
  (opts: { invalid?: Set<string>; drop?: Set<string>; serveFirst?: number } = {}): StubHandler =>
  (req, res) => {
    const trace = req.query?.trace ?? '';
    const codes = ((req.query?.data.symbol_list ?? []) as { code: string }[]).map((s) => s.code);
    if (codes.some((c) => opts.invalid?.has(c))) return fail(res, trace, 600, 'code invalid');
    const served = codes.slice(0, opts.serveFirst ?? codes.length).filter((c) => !opts.drop?.has(c));
    ok(res, trace, {
      tick_list: served.map((code) => ({ code, seq: '1', tick_time: '1677830357227', price: '1.5', volume: '1', turnover: '1.5', trade_direction: 1 })),
    });
  };

describe('createClient against a stub server', () => {
  it('builds a kline request: family path, URL-encoded query, unique trace, wire strings kept', async () => {
    const { client, requests, infos } = await setup((req, res) =>
      ok(res, req.query!.trace, { code: (req.query!.data as { code: string }).code, kline_type: 8, kline_list: [bar(1763413200)] }),
    );
    const a = await client.kline({ code: 'AAPL.US', klineType: 8, count: 2 });
    const b = await client.kline({ code: 'BTCUSDT', klineType: 1, count: 500, endSec: 1763535600 });
    expect(a.bars[0]).toEqual(bar(1763413200));
    expect(a.bars[0]?.close_price).toBe('1.20');
    expect(b.code).toBe('BTCUSDT');
    expect(requests.map((r) => r.path)).toEqual(['/quote-stock-b-api/kline', '/quote-b-api/kline']);
    expect(requests[0]?.token).toBe(TOKEN);
    expect(requests[0]?.query).toEqual({
      trace: 'run1-1',
      data: { code: 'AAPL.US', kline_type: 8, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 },
    });
    expect(requests[1]?.query?.trace).toBe('run1-2');
    expect((requests[1]?.query?.data as { kline_timestamp_end: number }).kline_timestamp_end).toBe(1763535600);
    // The raw request-target has the JSON percent-encoded, never bare.
    expect(requests[0]?.raw).toContain('query=%7B%22trace%22');
    expect(client.requestCounts()).toEqual({ '/quote-stock-b-api/kline': 1, '/quote-b-api/kline': 1 });
    expect(infos.map((i) => [i.endpoint, i.outcome, i.ret])).toEqual([
      ['/quote-stock-b-api/kline', 'ok', 200],
      ['/quote-b-api/kline', 'ok', 200],
    ]);
    await client.close();
  });

  it('familyOverrides and familyLookup route a code', async () => {
    const { client, requests } = await setup(
      (req, res) => ok(res, req.query!.trace, { code: 'X', kline_type: 1, kline_list: [] }),
      { familyOverrides: { 'ODD.US': 'non-stock' }, familyLookup: (c) => (c === 'HSI' ? 'stock' : undefined) },
    );
    await client.kline({ code: 'ODD.US', klineType: 1, count: 1 });
    await client.kline({ code: 'HSI', klineType: 1, count: 1 });
    expect(requests.map((r) => r.path)).toEqual(['/quote-b-api/kline', '/quote-stock-b-api/kline']);
    await client.close();
  });

  it('ret 400 is an ApiError with ret, msg, trace, endpoint and codes, not retried', async () => {
    const { client, requests } = await setup((req, res) => fail(res, req.query!.trace, 400, 'request data param invalid'));
    const error = await client.kline({ code: 'AAPL.US', klineType: 6, count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      ret: 400,
      serviceMessage: 'request data param invalid',
      trace: 'run1-1',
      endpoint: '/quote-stock-b-api/kline',
      codes: ['AAPL.US'],
      retryable: false,
      code: 'QL_API_BAD_REQUEST',
    });
    expect(requests).toHaveLength(1);
    await client.close();
  });

  it.each([401, 601, 604, 605])('ret %i is not retried', async (ret) => {
    const { client, requests } = await setup((req, res) => fail(res, req.query!.trace, ret, 'x'));
    await expect(client.kline({ code: 'AAPL.US', klineType: 1, count: 1 })).rejects.toMatchObject({ ret });
    expect(requests).toHaveLength(1);
    await client.close();
  });

  it('retries 5xx, dropped connections and truncated bodies with a fresh trace, then succeeds', async () => {
    let n = 0;
    const { client, requests, infos, clock } = await setup((req, res) => {
      n++;
      if (n === 1) return json(res, { error: 'boom' }, 503);
      if (n === 2) {
        res.socket?.destroy();
        return;
      }
      if (n === 3) {
        res.setHeader('content-type', 'application/json');
        return res.end('{"ret":200,"msg":"ok","trace":"x","data":{"co');
      }
      ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [bar(1)] });
    });
    const result = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(result.bars).toHaveLength(1);
    expect(requests.map((r) => r.query?.trace)).toEqual(['run1-1', 'run1-2', 'run1-3', 'run1-4']);
    expect(infos.map((i) => i.outcome)).toEqual(['transport-error', 'transport-error', 'transport-error', 'ok']);
    // The backoff waited on the injected clock (full jitter: somewhere in [0, 250+500+1000) ms).
    expect(clock.now() - T0).toBeLessThan(1750);
    await client.close();
  });

  it('gives up after the configured attempts with a TransportError', async () => {
    const { client, requests } = await setup((_req, res) => json(res, {}, 502), { retry: { attempts: 3, random: () => 0.5 } });
    await expect(client.kline({ code: 'EURUSD', klineType: 1, count: 1 })).rejects.toBeInstanceOf(TransportError);
    expect(requests).toHaveLength(3);
    await client.close();
  });

  it('backoff is full jitter on the injected clock, bounded by attempts and total time', async () => {
    const first = await setup((_req, res) => json(res, {}, 503), { retry: { attempts: 4, random: () => 0.999 } });
    await expect(first.client.kline({ code: 'EURUSD', klineType: 1, count: 1 })).rejects.toBeInstanceOf(TransportError);
    // random * min(maxDelay, 250 * 2^n): 249 + 499 + 999 ms between the 4 attempts.
    expect(first.infos.map((i) => i.sentAt - T0)).toEqual([0, 249, 748, 1747]);
    await first.client.close();
    await closeStub();
    const second = await setup((_req, res) => json(res, {}, 503), {
      retry: { attempts: 10, maxTotalMs: 600, random: () => 0.999 },
    });
    await expect(second.client.kline({ code: 'EURUSD', klineType: 1, count: 1 })).rejects.toBeInstanceOf(TransportError);
    expect(second.infos.map((i) => i.sentAt - T0)).toEqual([0, 249]);
    await second.client.close();
  });

  it('a body of the wrong shape is a ResponseShapeError naming the field', async () => {
    const { client } = await setup((req, res) => ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: 'nope' }));
    const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toContain('data.kline_list');
    await client.close();
  });

  it('a bad record does not fail its page: it is delivered as sent (known fields only), to be rejected by parse-decimals', async () => {
    const { client } = await setup((req, res) =>
      ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [{ ...bar(1), open_price: 1.1, extra: 'x' }, bar(2), null] }),
    );
    const result = await client.kline({ code: 'EURUSD', klineType: 1, count: 3 });
    expect(result.bars).toEqual([{ ...bar(1), open_price: 1.1 }, bar(2), null]);
    await client.close();
  });

  it('a 429 is re-queued behind a paused limiter and the request still succeeds', async () => {
    let n = 0;
    const { client, clock, infos } = await setup((req, res) => {
      n++;
      if (n === 1) return fail(res, req.query!.trace, 429, 'rate limit');
      ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [] });
    }, { retry: { attempts: 1, random: () => 0 } });
    const result = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(result.code).toBe('EURUSD');
    expect(infos.map((i) => i.outcome)).toEqual(['rate-limited', 'ok']);
    expect(clock.now() - T0).toBe(1000); // held one per-second window
    // The rejected request was refunded: one request counted.
    expect((await client.quotaStatus()).used).toBe(1);
    await client.close();
  });

  it('daily limit exceeded from the service raises QuotaExhaustedError and syncs the quota file', async () => {
    const { client } = await setup((req, res) => fail(res, req.query!.trace, 429, 'daily limit exceeded'));
    const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-01-06T00:00:00.000Z');
    expect(await client.quotaStatus()).toMatchObject({ used: 1_728_000, remaining: 0 });
    const file = JSON.parse(await readFile(join(fixture.stateDir(), 'quota', `${tokenHash16(TOKEN)}.json`), 'utf8'));
    expect(file).toMatchObject({ day: '2026-01-05', used: 1_728_000 });
    await client.close();
  });

  it('Free never sends more than 5 codes and names codes the service did not return', async () => {
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ', 'MSFT.US'];
    const { client, requests } = await setup(tickHandler({ drop: new Set(['857.HK']) }), { plan: 'free' });
    const result = await client.tradeTicks(codes);
    // R7: the code left out is asked for again, alone, twice, before it is reported missing.
    expect(requests.map((r) => (r.query!.data.symbol_list as unknown[]).length)).toEqual([5, 2, 1, 1]);
    expect(result.ticks.map((t) => t.code).sort()).toEqual(codes.filter((c) => c !== '857.HK').sort());
    expect(result.missing).toEqual(['857.HK']);
    expect(result.invalid).toEqual([]);
    await client.close();
  });

  it('codes a silently truncating service left out are asked for again and delivered', async () => {
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK'];
    const { client, requests } = await setup(tickHandler({ serveFirst: 2 }), { plan: 'basic' });
    const result = await client.depthTicks(codes);
    expect(requests.map((r) => (r.query!.data.symbol_list as { code: string }[]).map((c) => c.code))).toEqual([codes, ['700.HK', '857.HK']]);
    expect(result.ticks.map((t) => t.code)).toEqual(codes);
    expect(result.missing).toEqual([]);
    await client.close();
  });

  it('codes still left out after two more asks are reported missing by name', async () => {
    const codes = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK'];
    const { client, requests } = await setup(tickHandler({ serveFirst: 1 }), { plan: 'basic' });
    const result = await client.depthTicks(codes);
    expect(requests).toHaveLength(3);
    expect(result.ticks.map((t) => t.code)).toEqual(['AAPL.US', 'TSLA.US', '700.HK']);
    expect(result.missing).toEqual(['857.HK']);
    await client.close();
  });

  it('groups codes by family, one request per family', async () => {
    const { client, requests } = await setup(tickHandler());
    const result = await client.depthTicks(['AAPL.US', 'EURUSD', '700.HK', 'BTCUSDT']);
    expect(requests.map((r) => [r.path, (r.query!.data.symbol_list as { code: string }[]).map((s) => s.code)]).sort()).toEqual([
      ['/quote-b-api/depth-tick', ['EURUSD', 'BTCUSDT']],
      ['/quote-stock-b-api/depth-tick', ['AAPL.US', '700.HK']],
    ]);
    expect(result.ticks).toHaveLength(4);
    await client.close();
  });

  it('bisects a ret 600 batch, names the invalid codes and delivers the rest', async () => {
    const codes = Array.from({ length: 16 }, (_, i) => `C${i}.US`);
    const { client, requests } = await setup(tickHandler({ invalid: new Set(['C3.US', 'C12.US']) }));
    const result = await client.tradeTicks(codes);
    expect(result.invalid.sort()).toEqual(['C12.US', 'C3.US']);
    expect(result.ticks.map((t) => t.code).sort()).toEqual(codes.filter((c) => c !== 'C3.US' && c !== 'C12.US').sort());
    expect(result.missing).toEqual([]);
    // 1 + 2 + 4 + 4 + 4 requests at most for two bad codes in 16; every one counted by the quota.
    expect(requests.length).toBeLessThanOrEqual(15);
    expect((await client.quotaStatus()).used).toBe(requests.length);
    await client.close();
  });

  it('keeps every GET request-target under 8 KiB', async () => {
    const codes = Array.from({ length: 600 }, (_, i) => `LONGCODE${String(i).padStart(5, '0')}.US`);
    const { client, requests } = await setup(tickHandler());
    const result = await client.depthTicks(codes);
    expect(result.ticks).toHaveLength(600);
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) expect(Buffer.byteLength(r.raw)).toBeLessThanOrEqual(8192);
    // Packed tightly: all but the last request are near the budget.
    expect(Buffer.byteLength(requests[0]!.raw)).toBeGreaterThan(8192 - 200);
    await client.close();
  });

  it('batch-kline is a POST with the items packed to the plan cap', async () => {
    const { client, requests } = await setup(
      (req, res) => {
        const body = JSON.parse(req.body) as { trace: string; data: { data_list: { code: string; kline_type: number }[] } };
        ok(res, body.trace, {
          kline_list: body.data.data_list.map((i) => ({ code: i.code, kline_type: i.kline_type, kline_data: [bar(1), bar(2)] })),
        });
      },
      { plan: 'free' },
    );
    const items = Array.from({ length: 7 }, (_, i) => ({ code: `S${i}.US`, klineType: 1 }));
    const result = await client.batchKline(items);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(requests[0]?.url.searchParams.get('token')).toBe(TOKEN);
    const first = JSON.parse(requests[0]!.body) as { trace: string; data: { data_list: unknown[] } };
    expect(first.data.data_list).toHaveLength(5);
    expect(first.data.data_list[0]).toEqual({ code: 'S0.US', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 });
    expect(result.series).toHaveLength(7);
    expect(result.missing).toEqual([]);
    await client.close();
  });

  it('halts: page/size, Accept header, suspension errors mapped', async () => {
    let n = 0;
    const { client, requests } = await setup((_req, res) => {
      n++;
      if (n === 1)
        return json(res, { success: true, timestamp: '2024-01-15T10:30:00', totalCount: 1, data: [{ symbol: 'A', haltReason: null }], totalPages: 1, currentPage: 1, currentSize: 1 });
      return json(res, { success: false, error: 'exchange not covered by plan' }, 500);
    });
    const page = await client.halts('nyse', { page: 1, size: 2 });
    expect(page.data[0]).toEqual({ symbol: 'A', haltReason: null });
    expect(requests[0]?.url.searchParams.get('page')).toBe('1');
    expect(requests[0]?.url.searchParams.get('size')).toBe('2');
    const error = await client.halts('sse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 500, serviceMessage: 'exchange not covered by plan', endpoint: '/api/suspension/sse' });
    await client.close();
  });

  it('suspension "rate limit" is re-queued like a 429', async () => {
    let n = 0;
    const { client, infos } = await setup((_req, res) => {
      n++;
      if (n === 1) return json(res, { success: false, error: 'rate limit' }, 500);
      return json(res, { success: true, timestamp: '2024-01-15T10:30:00', totalCount: 0, data: [] });
    });
    const result = await client.halts('nasdaq');
    expect(result.totalCount).toBe(0);
    expect(infos.map((i) => i.outcome)).toEqual(['rate-limited', 'ok']);
    await client.close();
  });

  it('an aborted signal stops a waiting request', async () => {
    const { client } = await setup(tickHandler(), { plan: 'free' });
    await client.tradeTicks(['AAPL.US']);
    const controller = new AbortController();
    const waiting = client.tradeTicks(['TSLA.US'], controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'QL_ABORTED' });
    await client.close();
  });

  it('a signal aborted before the call sends nothing', async () => {
    const { client, requests } = await setup(tickHandler());
    const controller = new AbortController();
    controller.abort();
    await expect(client.tradeTicks(['AAPL.US'], controller.signal)).rejects.toMatchObject({ code: 'QL_ABORTED' });
    expect(requests).toHaveLength(0);
    await client.close();
  });

  it('an answer that comes after its signal aborted is not returned', async () => {
    const controller = new AbortController();
    const { client } = await setup((req, res) => {
      controller.abort();
      tickHandler()(req, res);
    });
    await expect(client.tradeTicks(['AAPL.US'], controller.signal)).rejects.toMatchObject({ code: 'QL_ABORTED' });
    await client.close();
  });

  it('a transient failure is retried as attempt 2 and each attempt is reported once', async () => {
    let n = 0;
    const { client, infos, requests } = await setup((req, res) => {
      n++;
      if (n === 1) return json(res, { error: 'busy' }, 500);
      tickHandler()(req, res);
    });
    const ticks = await client.tradeTicks(['AAPL.US']);
    expect(ticks.ticks.map((t) => t.code)).toEqual(['AAPL.US']);
    expect(requests).toHaveLength(2);
    expect(infos.map((i) => [i.attempt, i.outcome])).toEqual([
      [1, 'transport-error'],
      [2, 'ok'],
    ]);
    await client.close();
  });

  it('the quota file and the recent sends are named by the token hash and never hold the token', async () => {
    const { client } = await setup(tickHandler());
    await client.tradeTicks(['AAPL.US']);
    await client.close();
    const files = (await readdir(join(fixture.stateDir(), 'quota'))).sort();
    expect(files).toEqual([`${tokenHash16(TOKEN)}.json`, `${tokenHash16(TOKEN)}.sends.json`]);
    const texts = await Promise.all(files.map((f) => readFile(join(fixture.stateDir(), 'quota', f), 'utf8')));
    for (const text of texts) expect(text).not.toContain(TOKEN);
    expect(JSON.parse(texts[0]!)).toMatchObject({ used: 1 });
  });
});
