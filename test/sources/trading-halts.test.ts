import { afterEach, describe, expect, it } from 'vitest';
import type { RawHalt } from '../../src/core/records.js';
import { tradingHalts, tradingHaltsConfigSchema } from '../../src/sources/trading-halts/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('trading-halts', () => {
  it('the whole last year per exchange in one request each; a second run writes nothing new', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('professional');
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({}), world.env(client));
    const first = await drain<RawHalt>(src, world.clock);
    expect(client.requestCounts()).toEqual({ '/api/suspension/sse': 1, '/api/suspension/nyse': 1, '/api/suspension/nasdaq': 1 });
    for (const ex of ['sse', 'nyse', 'nasdaq'] as const) {
      const truth = world.halts.records(ex, world.clock.now());
      expect(first.records.filter((r) => r.exchange === ex).map((r) => r.record)).toEqual(truth);
    }
    // A minute later (the per-exchange limit): nothing changed, nothing written.
    world.clock.advance(60_000);
    const second = await drain<RawHalt>(src, world.clock, first.checkpoints);
    expect(client.requestCounts()).toEqual({ '/api/suspension/sse': 2, '/api/suspension/nyse': 2, '/api/suspension/nasdaq': 2 });
    expect(second.records).toEqual([]);
  });

  it('a week later: only new or changed records (resumptions announced since)', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('professional');
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['nasdaq'] }), world.env(client));
    const first = await drain<RawHalt>(src, world.clock);
    const t1 = world.clock.now();
    world.clock.advance(7 * 86_400_000);
    const second = await drain<RawHalt>(src, world.clock, first.checkpoints);
    const before = new Map(world.halts.records('nasdaq', t1).map((r) => [JSON.stringify(r), r]));
    const now = world.halts.records('nasdaq', world.clock.now());
    const expected = now.filter((r) => !before.has(JSON.stringify(r)));
    expect(second.records.map((r) => r.record)).toEqual(expected);
    expect(second.records.length).toBeGreaterThan(0);
    expect(second.records.length).toBeLessThan(now.length / 4);
  });

  it('paged (S1): pages one minute apart, the same records as one request', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z');
    const client = world.client('professional');
    const t0 = world.clock.now();
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['sse'], pageSize: 200 }), world.env(client));
    const run = await drain<RawHalt>(src, world.clock);
    const truth = world.halts.records('sse', t0);
    const pages = Math.ceil(truth.length / 200);
    expect(client.requestCounts()['/api/suspension/sse']).toBe(pages);
    expect(world.clock.now() - t0).toBe((pages - 1) * 60_000);
    // Records published while paging may shift pages; with none published here, all arrive once.
    expect(new Set(run.records.map((r) => JSON.stringify(r.record))).size).toBe(run.records.length);
    expect(run.records.length).toBeGreaterThanOrEqual(truth.length - pages);
  });

  it('paged with each page repeating the last record of the one before (R6): the note counts each record once', async () => {
    world = await startWorld('2026-03-03T15:00:00.000Z', 7, 'halt-duplicates=1');
    const client = world.client('professional');
    const t0 = world.clock.now();
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['sse'], pageSize: 200 }), world.env(client));
    const run = await drain<RawHalt>(src, world.clock);
    const truth = world.halts.records('sse', t0);
    expect(run.records).toHaveLength(truth.length);
    expect(run.events.snapshot().notes).toContain(`trading-halts sse: ${truth.length} record(s) in the last year, ${truth.length} new or changed`);
  });
});
