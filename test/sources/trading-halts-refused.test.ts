/**
 * trading-halts through the real runtime with a token whose plan covers some exchanges only (the
 * emulator's All-* plans cover their own market): the exchanges answered are committed, each one
 * refused is a shortfall naming it (exit 4); when every exchange is refused, the run fails with
 * the service's error, as nothing was delivered.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { readHaltRows } from '../../src/coverage/index.js';
import { run } from './helpers/run.js';
import { startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const HALTS = { name: 'halts', source: { type: 'trading-halts' }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet' } };

describe('trading-halts: exchanges the token is refused', () => {
  it("all-cn: SSE's records are committed, NYSE and NASDAQ are each named as not delivered (a shortfall)", async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const outputDir = join(world.env(world.client()).outputDir, 'cn');
    const r = await run(HALTS, { client: world.client('all-cn'), clock: world.clock, outputDir });
    expect([r.status, r.shortfalls]).toEqual(['succeeded', 2]);
    for (const exchange of ['nyse', 'nasdaq']) {
      expect(r.notes).toContain(
        `trading-halts ${exchange}: not delivered: /api/suspension/${exchange}: HTTP 500 exchange not covered by plan; the other exchanges' records are kept and the next run asks again (a token whose plan does not cover ${exchange} is refused every time: drop it from exchanges)`,
      );
    }
    const rows = await readHaltRows(outputDir);
    expect(new Set(rows.map((row) => row.exchange))).toEqual(new Set(['sse']));
    expect(rows.length).toBe(world.halts.records('sse', world.clock.now()).length);
  });

  it('all-hk: every exchange refused is the run failing with the service error, nothing written', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const outputDir = join(world.env(world.client()).outputDir, 'hk');
    const error = await run(HALTS, { client: world.client('all-hk'), clock: world.clock, outputDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/^\/api\/suspension\/(sse|nyse|nasdaq): HTTP 500 exchange not covered by plan$/);
    expect(await readHaltRows(outputDir).catch(() => [])).toEqual([]);
  });
});
