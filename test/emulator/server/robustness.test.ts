import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, klineQuery, tickQuery, type Harness } from './harness.js';
import { standInBackends } from './stand-ins.js';

let h: Harness;
const logged: string[] = [];
beforeAll(async () => {
  h = await startHarness({ limits: false });
});
afterAll(async () => h.close());

const TOKEN = 'demo-professional';
const stillServes = async (hh: Harness = h) => {
  const r = await hh.market('stock', 'kline', TOKEN, klineQuery('AAPL.US'));
  expect(r.json.ret).toBe(200);
};

/** Raw bytes on a socket, for requests an HTTP client would refuse to send. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    let out = '';
    s.on('data', (d) => (out += d.toString()));
    s.on('end', () => resolve(out));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

describe('bad requests get the spec error and the server keeps serving', () => {
  it('malformed, wrong-typed, deeply nested and oversized query JSON', async () => {
    const cases: [string, number, string][] = [
      ['{"trace":"a","data":', 400, 'request header param invalid'],
      ['null', 400, 'request header param invalid'],
      ['"just a string"', 400, 'request header param invalid'],
      ['['.repeat(1300) + ']'.repeat(1300), 400, 'request header param invalid'],
      [JSON.stringify({ trace: 'a', data: { code: { a: { b: { c: [[[[[]]]]] } } } } }), 400, 'request data param invalid'],
      [JSON.stringify({ trace: 'a', data: { code: 'AAPL.US', kline_type: 1e400 } }), 400, 'request data param invalid'],
      [JSON.stringify({ trace: 'x'.repeat(7000), data: {} }), 400, 'request data param invalid'],
    ];
    for (const [query, ret, msg] of cases) {
      const r = await h.market('stock', 'kline', TOKEN, query);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ ret, msg, data: {} });
    }
    await stillServes();
  });

  it('deep nesting in a POST body', async () => {
    const deep = '{"trace":"d","data":{"data_list":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}}';
    const r = await h.batch('stock', TOKEN, deep);
    expect(r.json.ret).toBe(400);
    const deepObj = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect((await h.batch('stock', TOKEN, deepObj)).json).toMatchObject({ ret: 400, msg: 'request header param invalid' });
    await stillServes();
  });

  it('unknown fields are ignored', async () => {
    const q = { trace: 'u', extra: [1, 2], data: { ...klineQuery('AAPL.US').data, colour: 'blue' } };
    expect((await h.market('stock', 'kline', TOKEN, q)).json).toMatchObject({ ret: 200, trace: 'u' });
    const t = { trace: 'v', data: { symbol_list: [{ code: 'AAPL.US', weight: 3 }], x: null } };
    expect((await h.market('stock', 'depth-tick', TOKEN, t)).json.ret).toBe(200);
  });

  it('invalid percent-encoding of query is a 400 header error', async () => {
    const r = await h.raw(`/quote-stock-b-api/kline?token=${TOKEN}&query=%7B%22trace%22%3A%E0%A4%A`);
    expect(r.json).toMatchObject({ ret: 400, msg: 'request header param invalid', data: {} });
    const r2 = await h.raw(`/quote-stock-b-api/kline?token=${TOKEN}&query=%ZZ`);
    expect(r2.json.ret).toBe(400);
    await stillServes();
  });

  it('a body over 1 MiB is HTTP 413 JSON, declared or chunked', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const r = await h.raw(`/quote-stock-b-api/batch-kline?token=${TOKEN}`, { method: 'POST', body: big }).catch(
      (e: Error) => ({ status: -1, json: { error: e.message } }) as const,
    );
    expect(r.status).toBe(413);
    expect(r.json.error).toMatch(/over 1048576 bytes/);
    const chunked = await rawExchange(
      h.emu.port,
      `POST /quote-stock-b-api/batch-kline?token=${TOKEN} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `100000\r\n${'a'.repeat(0x100000)}\r\n10\r\n${'b'.repeat(16)}\r\n0\r\n\r\n`,
    );
    expect(chunked).toMatch(/^HTTP\/1.1 413/);
    expect(chunked).toContain('application/json; charset=utf-8');
    await stillServes();
  });

  it('garbage on the wire gets a JSON 400 and the connection is closed', async () => {
    const out = await rawExchange(h.emu.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1.1 400/);
    expect(out).toContain('{"error":"bad request"}');
    await stillServes();
  });

  it('an HTTP/1.1 request without Host gets a JSON 400 (HTTP/1.0 needs none)', async () => {
    const out = await rawExchange(h.emu.port, `GET /quote-b-api/kline?token=${TOKEN} HTTP/1.1\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1.1 400/);
    expect(out.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expect(out).toContain('{"error":"bad request: an HTTP/1.1 request needs a Host header"}');
    const old = await rawExchange(h.emu.port, 'GET /no-such-path HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1.1 404/);
    await stillServes();
  });

  it('two Host lines or a Host that is no host name is a JSON 400 (RFC 9112 3.2)', async () => {
    for (const headers of ['Host: a\r\nHost: b\r\n', 'Host: a b c\r\n', 'Host: user@a\r\n']) {
      const out = await rawExchange(h.emu.port, `GET /quote-b-api/kline?token=${TOKEN} HTTP/1.1\r\n${headers}\r\n`);
      expect(out).toMatch(/^HTTP\/1.1 400/);
      expect(out).toContain('{"error":"bad request: one valid Host header is needed"}');
    }
    await stillServes();
  });

  it('an absolute-form target is served by its path and query, its authority never echoed (RFC 9112 3.2.2)', async () => {
    const query = encodeURIComponent(JSON.stringify(klineQuery('AAPL.US')));
    const served = await rawExchange(h.emu.port, `GET http://127.0.0.1:${h.emu.port}/quote-stock-b-api/kline?token=${TOKEN}&query=${query} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(served).toMatch(/^HTTP\/1.1 200/);
    expect(served).toContain('"ret":200');
    const missing = await rawExchange(h.emu.port, 'GET http://user:secret@example.com/no-such-path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(missing).toMatch(/^HTTP\/1.1 404/);
    expect(missing).toContain('no such path: /no-such-path');
    expect(missing).not.toContain('secret');
  });

  it('CONNECT and an Expect other than 100-continue get JSON answers, not a dropped socket or an empty body', async () => {
    const connectOut = await rawExchange(h.emu.port, `CONNECT 127.0.0.1:${h.emu.port} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(connectOut).toMatch(/^HTTP\/1.1 405/);
    expect(connectOut.toLowerCase()).toContain('allow: get, post');
    expect(connectOut).toContain('{"error":"method CONNECT not allowed"}');
    const expectOut = await rawExchange(h.emu.port, `GET /quote-b-api/kline?token=${TOKEN} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n`);
    expect(expectOut).toMatch(/^HTTP\/1.1 417/);
    expect(expectOut).toContain('{"error":"expectation failed: only Expect: 100-continue is supported"}');
    await stillServes();
  });

  it('a halt endpoint refused before routing (Host, Expect) still answers success: false (S5)', async () => {
    const target = `/api/suspension/sse?token=${TOKEN}`;
    const cases: [string, string, string][] = [
      [`GET ${target} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n`, '417', 'expectation failed: only Expect: 100-continue is supported'],
      [`GET ${target} HTTP/1.1\r\n\r\n`, '400', 'bad request: an HTTP/1.1 request needs a Host header'],
      [`GET ${target} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, '400', 'bad request: one valid Host header is needed'],
      [`GET http://x/api/suspension/nyse HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n`, '417', 'expectation failed: only Expect: 100-continue is supported'],
    ];
    for (const [bytes, status, error] of cases) {
      const out = await rawExchange(h.emu.port, bytes);
      expect(out).toMatch(new RegExp(`^HTTP/1.1 ${status}`));
      expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error });
    }
    await stillServes();
  });

  it('a count past 2^53 is served as 500 bars like any count above 500 (W5), not refused', async () => {
    for (const n of [9007199254740992, 1e20]) {
      const r = await h.market('non-stock', 'kline', TOKEN, klineQuery('BTCUSDT', { query_kline_num: n }));
      expect(r.json.ret, JSON.stringify(r.json)).toBe(200);
      expect((r.json.data as { kline_list: unknown[] }).kline_list).toHaveLength(500);
    }
    for (const n of [0, -1, -1e20, 2.5]) {
      const r = await h.market('non-stock', 'kline', TOKEN, klineQuery('BTCUSDT', { query_kline_num: n }));
      expect(r.json).toMatchObject({ ret: 400, msg: 'request data param invalid' });
    }
  });

  it('a count past the largest double (JSON.parse reads it as Infinity) is served as 500 bars too', async () => {
    // Written as raw JSON text: JSON.stringify would turn Infinity into null.
    const query = (count: string) => JSON.stringify(klineQuery('BTCUSDT', { query_kline_num: 0 })).replace('"query_kline_num":0', `"query_kline_num":${count}`);
    for (const count of ['1e309', `1${'0'.repeat(400)}`]) {
      const r = await h.market('non-stock', 'kline', TOKEN, query(count));
      expect(r.json.ret, JSON.stringify(r.json)).toBe(200);
      expect((r.json.data as { kline_list: unknown[] }).kline_list).toHaveLength(500);
    }
    for (const count of ['-1e309', `-1${'0'.repeat(400)}`]) {
      const r = await h.market('non-stock', 'kline', TOKEN, query(count));
      expect(r.json).toMatchObject({ ret: 400, msg: 'request data param invalid', trace: 't-1' });
    }
    // A /batch-kline item takes 1 or 2 only: a huge count there is still a 400.
    const body = JSON.stringify({ trace: 'b', data: { data_list: [klineQuery('BTCUSDT').data] } }).replace('"query_kline_num":2', '"query_kline_num":1e309');
    const b = await h.batch('non-stock', TOKEN, body);
    expect(b.json).toMatchObject({ ret: 400, msg: 'request data param invalid', trace: 'b' });
  });

  it('a slowloris client does not block others', async () => {
    const s = connect(h.emu.port, '127.0.0.1');
    await new Promise<void>((r) => s.on('connect', () => r()));
    s.write('GET /quote-stock-b-api/kline?token=demo HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    await stillServes();
    s.destroy();
  });

  it('tokens never appear in error messages', async () => {
    const r = await h.get('/quote-stock-b-api/nope', { token: 'secret-token-123' });
    expect(r.text).not.toContain('secret-token-123');
  });
});

describe('internal errors', () => {
  it('an exception in a handler is HTTP 500 JSON, logged, never a crash', async () => {
    const backends = standInBackends();
    backends.market.depth = () => {
      throw new Error('boom in depth');
    };
    const hh = await startHarness({ backends, limits: false, log: (l) => logged.push(l) });
    try {
      const r = await hh.market('stock', 'depth-tick', TOKEN, tickQuery(['AAPL.US']));
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ error: 'internal emulator error' });
      expect(logged.join('\n')).toMatch(/boom in depth/);
      expect(logged.join('\n')).toContain('GET /quote-stock-b-api/depth-tick');
      expect(logged.join('\n')).not.toContain(TOKEN);
      await stillServes(hh);
    } finally {
      await hh.close();
    }
  });
});
