import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import { components } from '../../src/components.js';
import { parsePipelineYaml } from '../../src/config/parse-pipeline.js';
import type { RawKline } from '../../src/core/records.js';
import { readKlineRows } from '../../src/coverage/index.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { drain, runContext, startWorld, type World } from './helpers/world.js';
import { run } from './helpers/run.js';
import { planPipeline } from '../../src/plan/index.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('kline-history: stocks', () => {
  it('a full page of 500 asked for and answered short every time: four asks with four counts, the series named', async () => {
    world = await startWorld('2026-03-04T18:00:30.000Z', 7, 'short-pages=1');
    const w = world;
    const client = w.client('professional');
    // A day and a half of minutes: more than a page, so the newest 500 are asked for.
    const config = klineHistoryConfigSchema.parse({ codes: ['AAPL.US'], intervals: ['1m'], since: '2026-03-03T14:30:00Z' });
    const asked: number[] = [];
    const counting = new Proxy(client, {
      get: (target, key) =>
        key === 'kline'
          ? (req: Parameters<typeof client.kline>[0], signal?: AbortSignal) => (asked.push(req.count), target.kline(req, signal))
          : (Reflect.get(target, key) as unknown) instanceof Function
            ? (Reflect.get(target, key) as (...a: unknown[]) => unknown).bind(target)
            : Reflect.get(target, key),
    });
    const drained = await drain(klineHistory.create(config, w.env(counting)), w.clock);
    expect(asked).toEqual([500, 501, 502, 503]);
    expect(drained.events.snapshot().shortfalls).toBe(1);
    expect(drained.events.snapshot().notes.some((n) => /^kline AAPL\.US 1m: the service gave \d+ of the newest 500 bars asked for, in 4 tries;/.test(n))).toBe(true);
  });

  it('across a session open: the forming bar turns final in place, no duplicate in the output', async () => {
    world = await startWorld('2026-03-03T14:30:30.000Z'); // 09:30:30 New York
    const w = world;
    const client = w.client('professional');
    const outputDir = join(w.dir, 'out');
    const pipeline = {
      name: 'stock-1m',
      source: { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1m'], since: '2026-03-02' },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet' },
    };
    const first = await run(pipeline, { client, clock: w.clock, outputDir });
    expect(first.manifest.requests).toEqual({ '/quote-stock-b-api/kline': 1 });
    const open = Date.parse('2026-03-03T14:30:00Z');
    let rows = (await readKlineRows(outputDir)).filter((r) => r.ts >= open);
    expect(rows.map((r) => [r.ts, r.final])).toEqual([[open, false]]);
    w.clock.set('2026-03-03T14:32:10.000Z');
    const second = await run(pipeline, { client, clock: w.clock, outputDir });
    expect(second.manifest.requests).toEqual({ '/quote-stock-b-api/kline': 1 });
    const all = await readKlineRows(outputDir);
    expect(new Set(all.map((r) => r.ts)).size).toBe(all.length);
    expect(all).toHaveLength(390 + 3);
    rows = all.filter((r) => r.ts >= open).sort((a, b) => a.ts - b.ts);
    expect(rows.map((r) => [r.ts, r.final])).toEqual([
      [open, true],
      [open + 60_000, true],
      [open + 120_000, false],
    ]);
    const truth = w.market.klines(findProduct('AAPL.US')!, 1, 0, 3, w.clock.now());
    expect(rows.map((r) => r.close)).toEqual(truth.map((b) => b.close_price));
  });

  it('since beyond the newest 500 bars: fetched what exists, and said so', async () => {
    world = await startWorld('2026-03-04T21:00:00.000Z');
    const client = world.client('professional');
    const src = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['600000.SH'], intervals: ['1m'], since: '2026-02-01' }), world.env(client));
    const out = await drain<RawKline>(src, world.clock);
    expect(out.records).toHaveLength(500);
    expect(client.requestCounts()).toEqual({ '/quote-stock-b-api/kline': 1 });
    const note = out.events.snapshot().notes.find((n) => n.includes('600000.SH 1m'))!;
    expect(note).toContain('since 2026-02-01T00:00:00Z cannot be reached');
    expect(note).toContain('builds up across scheduled runs');
  });

  it('more than 500 bars formed since the last run: the lost span is a shortfall (exit 4; the runtime says it at warn)', async () => {
    world = await startWorld('2026-03-04T21:00:00.000Z');
    const client = world.client('professional');
    const config = klineHistoryConfigSchema.parse({ codes: ['AAPL.US'], intervals: ['1m'], since: '2026-03-04' });
    const first = await drain<RawKline>(klineHistory.create(config, world.env(client)), world.clock);
    expect(first.events.snapshot().shortfalls).toBe(0);
    world.clock.set('2026-03-09T21:00:00.000Z');
    const events = createRunEvents();
    const ctx = runContext(world.clock, events);
    const records: RawKline[] = [];
    for await (const batch of klineHistory.create(config, world.env(client)).read(ctx, first.checkpoints)) records.push(...(batch.records as RawKline[]));
    expect(records.filter((r) => r.final)).toHaveLength(500);
    expect(events.snapshot().shortfalls).toBe(1);
    // Three sessions of 390 bars formed (the 5th, the 6th and the 9th, after the switch to summer
    // time): the newest 500 are the 9th's 390 and the 6th's last 110 (from 19:10Z); the 5th's 390
    // and the 6th's first 280 are lost.
    expect(events.snapshot().notes).toEqual([
      'kline AAPL.US 1m: 1170 bars formed since the last run but the service gives stocks and indexes only their newest 500; the 670 after 2026-03-04T20:59:00Z (the newest held) and before 2026-03-06T19:10:00Z cannot be fetched (run more often); a bar held there as forming (final=false) keeps the values it had then',
    ]);
  });

  it('since beyond reach on a first run is a note, not a shortfall, and a warn line for runs without a summary', async () => {
    world = await startWorld('2026-03-04T21:00:00.000Z');
    const client = world.client('professional');
    const warned: string[] = [];
    const events = createRunEvents();
    const ctx = { ...runContext(world.clock, events), logger: { debug() {}, info() {}, error() {}, warn: (message: string) => void warned.push(message) } };
    const src = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['AAPL.US'], intervals: ['1m'], since: '2026-02-01' }), world.env(client));
    for await (const _ of src.read(ctx, new Map())) void _;
    expect(events.snapshot().shortfalls).toBe(0);
    expect(warned).toEqual(['kline AAPL.US 1m: since cannot be reached (the service gives stocks and indexes only their newest 500 bars)']);
  });

  it('since moved earlier: the newest bars reach down under the oldest held, once, as the plan says; as far as they go, said', async () => {
    world = await startWorld('2026-03-10T21:00:00.000Z');
    const w = world;
    const client = w.client('professional');
    const configOf = (since: string) => klineHistoryConfigSchema.parse({ codes: ['AAPL.US', 'USOIL'], intervals: ['1h'], since });
    const first = await drain<RawKline>(klineHistory.create(configOf('2026-03-05'), w.env(client)), w.clock);
    const oldest = (records: readonly RawKline[], code: string) => Math.min(...records.filter((r) => r.code === code).map((r) => Number(r.bar.timestamp)));
    expect(new Date(oldest(first.records, 'AAPL.US') * 1000).toISOString()).toBe('2026-03-05T14:00:00.000Z');
    w.clock.set('2026-03-10T21:05:00.000Z');
    const planOf = (since: string, checkpoints: Map<string, import('../../src/core/component.js').Checkpoint>) =>
      planPipeline({ name: 'p', source: { type: 'kline-history', codes: ['AAPL.US', 'USOIL'], intervals: ['1h'], since }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } }, {
        plan: 'professional',
        now: w.clock.now(),
        checkpoints,
        registry: components,
      });
    const planned = planOf('2026-03-02', first.checkpoints);
    const second = await drain<RawKline>(klineHistory.create(configOf('2026-03-02'), w.env(client)), w.clock, first.checkpoints);
    // AAPL.US: the 3rd and 4th (7 bars each, 09:30 to 15:30 New York) and the 2nd's 7 are added
    // below the 5th; nothing held is sent again, nothing above the watermark had formed yet.
    const aapl = second.records.filter((r) => r.code === 'AAPL.US').map((r) => new Date(Number(r.bar.timestamp) * 1000).toISOString());
    expect(aapl).toHaveLength(21);
    expect(aapl[0]).toBe('2026-03-02T14:00:00.000Z');
    expect(aapl.at(-1)).toBe('2026-03-04T20:00:00.000Z');
    expect(second.events.snapshot().notes).toEqual([]);
    expect(second.events.snapshot().requestsByStream).toEqual(Object.fromEntries(planned.streams.map((s) => [s.stream, s.requests])));
    expect(planned.streams.find((s) => s.stream === 'kline/AAPL.US/1h')!.records).toBe(21);
    // Further down than the newest 500 bars reach: as far as they go, said once, in the product's words.
    w.clock.set('2026-03-10T22:05:00.000Z');
    const third = await drain<RawKline>(klineHistory.create(configOf('2026-01-01'), w.env(client)), w.clock, second.checkpoints);
    expect(third.events.snapshot().notes).toEqual([
      'kline USOIL 1h: since 2026-01-01T00:00:00Z cannot be reached: the service gives energy products only their newest 500 bars (no end timestamp); history starts at 2026-02-10T04:00:00Z and builds up across scheduled runs',
    ]);
    expect(third.events.snapshot().shortfalls).toBe(0);
    w.clock.set('2026-03-10T23:05:00.000Z');
    const fourth = await drain<RawKline>(klineHistory.create(configOf('2026-01-01'), w.env(client)), w.clock, third.checkpoints);
    expect(fourth.events.snapshot().notes).toEqual([]);
    // Only what formed since: the newest bars no longer reach under what is held.
    expect(fourth.records.filter((r) => r.code === 'USOIL').length).toBeLessThanOrEqual(2);
  });

  it('2h on a stock is refused when the YAML is validated, at its line and column', () => {
    const yaml = [
      'name: bad',
      'source:',
      '  type: kline-history',
      '  codes: [AAPL.US]',
      '  intervals: [1h, 2h]',
      'sink:',
      '  type: parquet',
    ].join('\n');
    expect(() => parsePipelineYaml(yaml, { registry: components, file: 'bad.yaml' })).toThrow(/bad\.yaml:5:\d+.*2h bars are not served for AAPL\.US/s);
  });
});

describe('kline-history: until and abort', () => {
  it('since/until: exactly the bars between them, walked back from until', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const client = world.client('premium');
    const src = klineHistory.create(
      klineHistoryConfigSchema.parse({ codes: ['GOLD'], intervals: ['15m'], since: '2026-02-02T00:00:00Z', until: '2026-02-20T23:59:59Z' }),
      world.env(client),
    );
    const out = await drain<RawKline>(src, world.clock);
    const ts = out.records.map((r) => Number(r.bar.timestamp)).sort((a, b) => a - b);
    const product = findProduct('GOLD')!;
    const truth: number[] = [];
    let end = Date.parse('2026-02-20T23:59:59Z') / 1000;
    for (;;) {
      const page = world.market.klines(product, 3, end, 500, world.clock.now()).map((b) => Number(b.timestamp));
      truth.unshift(...page.filter((t) => t >= Date.parse('2026-02-02T00:00:00Z') / 1000));
      if (page[0]! <= Date.parse('2026-02-02T00:00:00Z') / 1000) break;
      end = page[0]! - 1;
    }
    expect(ts).toEqual(truth);
    expect(out.records.every((r) => r.final)).toBe(true);
    expect(client.requestCounts()['/quote-b-api/kline']).toBe(Math.ceil(truth.length / 500));
  });

  it('an aborted run stops between requests', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const client = world.client('professional');
    const src = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: '30d', concurrency: 1 }), world.env(client));
    const controller = new AbortController();
    let batches = 0;
    const events = (await import('../../src/runtime/run-events.js')).createRunEvents();
    const ctx = { runId: 'r', signal: controller.signal, logger: { debug() {}, info() {}, warn() {}, error() {} }, events, clock: world.clock };
    await expect(
      (async () => {
        for await (const _ of src.read(ctx, new Map())) {
          batches++;
          if (batches === 3) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ code: 'QL_ABORTED' });
    expect(batches).toBe(3);
    // The three delivered pages plus, at most, the pages already requested ahead (prefetchPages 4).
    expect(client.requestCounts()['/quote-b-api/kline']).toBeLessThanOrEqual(3 + 4);
  });
});
