import { Agent, request } from 'undici';
import { ManualClock } from '../../../src/core/clock.js';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/server.js';
import { standInBackends } from './stand-ins.js';

export const START = '2026-03-02T15:00:00.000Z';

export interface Harness {
  emu: EmulatorHandle;
  clock: ManualClock;
  get(path: string, params?: Record<string, string>): Promise<Res>;
  market(
    family: 'stock' | 'non-stock',
    op: 'kline' | 'depth-tick' | 'trade-tick',
    token: string,
    query: unknown,
  ): Promise<Res>;
  batch(family: 'stock' | 'non-stock', token: string, body: unknown): Promise<Res>;
  raw(path: string, init?: { method?: string; body?: string | Buffer; headers?: Record<string, string> }): Promise<Res>;
  close(): Promise<void>;
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

const prefix = (family: 'stock' | 'non-stock') => (family === 'stock' ? '/quote-stock-b-api' : '/quote-b-api');

/** `stepMs`: advance the manual clock this much before every request (keeps limits out of the way). */
export async function startHarness(options: EmulatorOptions = {}, stepMs = 0): Promise<Harness> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock(START);
  const emu = await startEmulator({ backends: standInBackends(), ...options, clock });
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
  const raw: Harness['raw'] = async (path, init = {}) => {
    if (stepMs > 0) clock.advance(stepMs);
    const r = await request(emu.url + path, {
      method: (init.method ?? 'GET') as 'GET',
      body: init.body,
      headers: init.headers,
      dispatcher,
    });
    const text = await r.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.statusCode, headers: r.headers, text, json };
  };
  const get: Harness['get'] = (path, params = {}) => {
    const qs = new URLSearchParams(params).toString();
    return raw(qs ? `${path}?${qs}` : path);
  };
  return {
    emu,
    clock,
    get,
    raw,
    market: (family, op, token, query) =>
      get(`${prefix(family)}/${op}`, { token, query: typeof query === 'string' ? query : JSON.stringify(query) }),
    batch: (family, token, body) =>
      raw(`${prefix(family)}/batch-kline?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
    close: async () => {
      await dispatcher.close();
      await emu.close();
    },
  };
}

export const klineQuery = (code: string, extra: Record<string, unknown> = {}, trace = 't-1') => ({
  trace,
  data: { code, kline_type: 1, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0, ...extra },
});

export const tickQuery = (codes: string[], trace = 't-2') => ({
  trace,
  data: { symbol_list: codes.map((code) => ({ code })) },
});
