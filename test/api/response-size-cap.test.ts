/** Answers above the client's maxResponseBytes are refused before parsing, and never retried. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, manualSleep, seededRandom, DEFAULT_MAX_RESPONSE_BYTES } from '../../src/api/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { ResponseTooLargeError } from '../../src/core/errors.js';
import { bar, ok, startStub, type StubHandler } from './helpers/stub-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(handler: StubHandler, maxResponseBytes?: number) {
  const stub = await startStub(handler);
  const dir = await mkdtemp(join(tmpdir(), 'ql-size-cap-'));
  const clock = new ManualClock('2026-03-03T05:10:00.000Z');
  const client = createClient({
    baseUrl: stub.url,
    token: 'demo-professional',
    plan: 'professional',
    stateDir: dir,
    clock,
    sleep: manualSleep(clock),
    retry: { random: seededRandom(1) },
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
  });
  cleanup.push(async () => {
    await client.close();
    await stub.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { stub, client };
}

const bars = (n: number) => Array.from({ length: n }, (_, i) => bar(1_700_000_000 + i * 60));

describe('response size cap', () => {
  it('the default is generous: 500 bars are far below it', () => {
    const page = JSON.stringify({ ret: 200, msg: 'ok', trace: 't', data: { code: 'BTCUSDT', kline_type: 1, kline_list: bars(500) } });
    expect(Buffer.byteLength(page)).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES / 50);
  });

  it('a body with a Content-Length above the cap is refused at once, named, not retried', async () => {
    const { client, stub } = await setup((req, res) => ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: bars(100) }), 4096);
    const error = await client.kline({ code: 'BTCUSDT', klineType: 1, count: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).code).toBe('QL_API_TOO_LARGE');
    expect((error as Error).message).toContain('/quote-b-api/kline: response refused: more than 4096 bytes');
    expect(stub.requests).toHaveLength(1);
  });

  it('a chunked body without a length stops being read past the cap', async () => {
    const { client, stub } = await setup((req, res) => {
      res.setHeader('content-type', 'application/json');
      // No Content-Length: written in pieces, the transport only learns the size by reading.
      res.write(`{"ret":200,"msg":"ok","trace":"${req.query!.trace}","data":{"code":"BTCUSDT","kline_type":1,"kline_list":[`);
      for (let i = 0; i < 200; i++) res.write(`${i > 0 ? ',' : ''}${JSON.stringify(bar(1_700_000_000 + i * 60))}`);
      res.end(']}}');
    }, 8192);
    const error = await client.kline({ code: 'BTCUSDT', klineType: 1, count: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(stub.requests).toHaveLength(1);
  });

  it('an answer under the cap is read as before', async () => {
    const { client } = await setup((req, res) => ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: bars(3) }), 8192);
    expect((await client.kline({ code: 'BTCUSDT', klineType: 1, count: 3 })).bars).toHaveLength(3);
  });
});
