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
  { token: 'f-504', plan: 'professional', faults: '504=1' },
  { token: 'f-untraced', plan: 'professional', faults: '429-untraced=1' },
  { token: 'f-busy', plan: 'professional', faults: 'halt-busy=1' },
  { token: 'f-ra-429', plan: 'professional', faults: '429=1,retry-after=1' },
  { token: 'f-ra-5xx', plan: 'professional', faults: '5xx=1,retry-after=1' },
  { token: 'f-ra-busy', plan: 'professional', faults: 'halt-busy=1,retry-after=1' },
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

describe('the other transient failures of R3', () => {
  it('504: HTTP 504 with a JSON body; nothing counted', async () => {
    const r = await q('f-504');
    expect(r.status).toBe(504);
    expect(r.json).toEqual({ error: 'gateway timeout' });
    expect(r.headers['retry-after']).toBeUndefined();
    expect(h.emu.usage('f-504')).toBeUndefined();
  });
  it('429 without the trace: the field left out or empty', async () => {
    const forms = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await q('f-untraced', `u${i}`);
      expect(r.json.ret).toBe(429);
      expect(r.json.msg).toBe('rate limit');
      expect(r.json.trace === undefined || r.json.trace === '').toBe(true);
      forms.add('trace' in r.json ? 'empty' : 'absent');
    }
    expect(forms).toEqual(new Set(['absent', 'empty']));
    expect(h.emu.usage('f-untraced')).toBeUndefined();
  });
  it('halt-busy: a suspension HTTP 500 saying the service is busy; market paths are served', async () => {
    const s = await h.get('/api/suspension/nasdaq', { token: 'f-busy' });
    expect(s.status).toBe(500);
    expect(s.json.success).toBe(false);
    expect(s.json.error).toMatch(/temporarily unavailable.*busy/);
    expect(s.json.error).not.toMatch(/rate limit/);
    expect((await q('f-busy')).json.ret).toBe(200);
  });
  it('Retry-After on 429, 503 and busy answers: delta-seconds or HTTP-date, 0 and past dates included', async () => {
    const values: string[] = [];
    for (let i = 0; i < 30; i++) {
      const a = await q('f-ra-429', `ra${i}`);
      expect(a.json.ret).toBe(429);
      values.push(a.headers['retry-after'] as string);
      const b = await q('f-ra-5xx');
      if (b.status === 503) values.push(b.headers['retry-after'] as string);
      else expect(b.headers['retry-after']).toBeUndefined();
      const c = await h.get('/api/suspension/sse', { token: 'f-ra-busy' });
      values.push(c.headers['retry-after'] as string);
    }
    const now = h.clock.now();
    const seconds = values.filter((v) => /^\d+$/.test(v)).map(Number);
    const dates = values.filter((v) => !/^\d+$/.test(v)).map((v) => Date.parse(v));
    expect(seconds.length + dates.length).toBe(values.length);
    expect(dates.every(Number.isFinite)).toBe(true);
    expect(seconds).toContain(0);
    expect(dates.some((d) => d < now)).toBe(true);
    expect(dates.some((d) => d > now)).toBe(true);
    for (const v of values.filter((x) => !/^\d+$/.test(x))) expect(v).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  });
  it('an older spec keeps its fault sequence for a seed (new faults draw from their own stream)', async () => {
    const { FaultInjector } = await import('../../../src/emulator/faults/fault-injector.js');
    const { parseFaultSpec } = await import('../../../src/emulator/faults/fault-spec.js');
    const old = new FaultInjector(parseFaultSpec('5xx=0.2,drop=0.2,truncate=0.2,429=0.2'), 42);
    const more = new FaultInjector(parseFaultSpec('5xx=0.2,drop=0.2,truncate=0.2,429=0.2,retry-after=1'), 42);
    for (let i = 0; i < 200; i++) {
      const a = old.decide();
      const b = more.decide();
      expect([b.kind, b.status]).toEqual([a.kind, a.status]);
    }
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
