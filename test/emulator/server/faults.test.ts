import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { klineQuery, startHarness, type Harness } from './harness.js';

const grants = [
  { token: 'f-drop', plan: 'professional', faults: 'drop=1' },
  { token: 'f-5xx', plan: 'professional', faults: '5xx=1' },
  { token: 'f-trunc', plan: 'professional', faults: 'truncate=1' },
  { token: 'f-429', plan: 'professional', faults: '429=1' },
  { token: 'f-lat', plan: 'professional', faults: 'latency=60ms' },
  { token: 'f-drip', plan: 'professional', faults: 'drip=15ms@1' },
] as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ plans: grants });
});
afterAll(async () => h.close());

const q = (token: string, trace = 'ft') => h.market('stock', 'kline', token, klineQuery('AAPL.US', { query_kline_num: 300 }, trace));
const fine = async () => expect((await q('demo-professional')).json.ret).toBe(200);

describe('faults, one kind at a time (rate 1)', () => {
  it('drop: the socket is destroyed before any byte; nothing counted', async () => {
    await expect(q('f-drop')).rejects.toThrow(/other side closed|socket|closed/i);
    expect(h.emu.usage('f-drop')).toBeUndefined();
    await fine();
  });
  it('5xx: HTTP 502 or 503 with a JSON body; nothing counted', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await q('f-5xx');
      expect([502, 503]).toContain(r.status);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.json.error).toMatch(/bad gateway|service unavailable/);
    }
    expect(h.emu.usage('f-5xx')).toBeUndefined();
  });
  it('truncate: an honest Content-Length for a body cut mid-JSON; nothing counted', async () => {
    const r = await q('f-trunc');
    expect(r.status).toBe(200);
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    expect(r.json).toBeUndefined();
    expect(() => JSON.parse(r.text)).toThrow();
    expect(r.text.startsWith('{"ret":200,"msg":"ok","trace":"ft","data":{"code":"AAPL.US"')).toBe(true);
    expect(h.emu.usage('f-trunc')).toBeUndefined();
    await fine();
  });
  it('429: a spurious rate limit with the trace; nothing counted', async () => {
    for (let i = 0; i < 25; i++) {
      const r = await q('f-429', `s${i}`);
      expect(r.json).toEqual({ ret: 429, msg: 'rate limit', trace: `s${i}`, data: {} });
    }
    const s = await h.get('/api/suspension/sse', { token: 'f-429' });
    expect(s.status).toBe(500);
    expect(s.json).toEqual({ success: false, error: 'rate limit' });
    expect(h.emu.usage('f-429')).toBeUndefined();
  });
  it('latency: served normally after the delay, and counted', async () => {
    const t0 = performance.now();
    const r = await q('f-lat');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(r.json.ret).toBe(200);
    expect(h.emu.usage('f-lat')!.day.used).toBe(1);
  });
  it('drip: the whole body arrives in small delayed chunks, and counted', async () => {
    const dispatcher = new Agent();
    const t0 = performance.now();
    const res = await request(
      `${h.emu.url}/quote-stock-b-api/kline?token=f-drip&query=${encodeURIComponent(JSON.stringify(klineQuery('AAPL.US', { query_kline_num: 300 })))}`,
      { dispatcher },
    );
    let chunks = 0;
    let text = '';
    for await (const c of res.body) {
      chunks++;
      text += c.toString();
    }
    expect(chunks).toBeGreaterThan(4);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(15 * 4);
    expect(JSON.parse(text).data.kline_list).toHaveLength(300);
    expect(h.emu.usage('f-drip')!.day.used).toBe(1);
    await dispatcher.close();
  });
});

describe('a seeded mix is reproducible', () => {
  const outcomes = async (seed: number): Promise<string[]> => {
    const hh = await startHarness({ seed, faults: '5xx=0.2,drop=0.2,truncate=0.2,429=0.2', limits: false });
    const out: string[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        try {
          const r = await hh.market('non-stock', 'kline', 'demo-professional', klineQuery('EURUSD'));
          out.push(r.status !== 200 ? `http${r.status}` : r.json === undefined ? 'truncated' : `ret${r.json.ret}`);
        } catch {
          out.push('drop');
        }
      }
    } finally {
      await hh.close();
    }
    return out;
  };
  it('same seed, same faults in the same order; another seed differs', async () => {
    const a = await outcomes(42);
    const b = await outcomes(42);
    const c = await outcomes(43);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    for (const kind of ['drop', 'truncated', 'ret429', 'ret200']) expect(a).toContain(kind);
    expect(a.some((k) => k === 'http502' || k === 'http503')).toBe(true);
  });
});
