/**
 * An exchange whose endpoint stays busy past its retries (R3: a passing error) is not delivered this
 * run, and its note says the next run asks again; the advice to drop it from `exchanges` is for a
 * token whose plan does not cover it (a permanent refusal), not for a service that was busy.
 * Real HTTP: the in-process emulator behind a small server that answers NYSE "busy" every time.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHaltRows } from '../../src/coverage/index.js';
import { run } from './helpers/run.js';
import { frozenClient, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
let busy: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
  busy = undefined;
  await world?.close();
  world = undefined;
});

const HALTS = { name: 'halts', source: { type: 'trading-halts', exchanges: ['sse', 'nyse'] }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet' } };
const BUSY = 'service temporarily unavailable: server busy, please try again later';

/** Forwards to `target`, except NYSE's halts: HTTP 500 busy, as S5 words a passing error. */
async function nyseBusy(target: string): Promise<string> {
  busy = createServer((req, res) => {
    if (req.url?.startsWith('/api/suspension/nyse')) {
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ success: false, error: BUSY }));
      return;
    }
    const out = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
}

describe('trading-halts: an exchange busy past its retries', () => {
  it('SSE is committed; NYSE is a shortfall whose note says the next run asks again, without the advice to drop it', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const url = await nyseBusy(world.emu.url);
    const outputDir = join(world.dir, 'busy');
    const client = frozenClient(url, 'professional', join(world.dir, 'state'), world.clock);
    try {
      const r = await run(HALTS, { client, clock: world.clock, outputDir });
      expect([r.status, r.shortfalls]).toEqual(['succeeded', 1]);
      const note = r.notes.find((n) => n.startsWith('trading-halts nyse: not delivered: '));
      expect(note).toMatch(new RegExp(`^trading-halts nyse: not delivered: /api/suspension/nyse: HTTP 500 ${BUSY}; after \\d+ attempts over \\d+ s; the other exchanges' records are kept and the next run asks again$`));
      const rows = await readHaltRows(outputDir);
      expect(rows.length).toBe(world.halts.records('sse', world.clock.now()).length);
    } finally {
      await client.close();
    }
  });
});
