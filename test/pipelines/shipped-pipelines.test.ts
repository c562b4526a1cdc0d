import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanName } from '../../src/api/index.js';
import { components } from '../../src/components.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import type { Pipeline } from '../../src/config/pipeline-schema.js';
import { coverageOfOutput, readHaltRows, readKlineRows } from '../../src/coverage/index.js';
import { planPipeline } from '../../src/plan/index.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { run } from '../sources/helpers/run.js';
import { startWorld, type World } from '../sources/helpers/world.js';

const DIR = fileURLToPath(new URL('../../pipelines/', import.meta.url));
const START = '2026-03-04T15:00:00.000Z'; // a Wednesday: US open, Asia closed

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function load(file: string): Promise<Pipeline> {
  return loadPipeline(join(DIR, file), components);
}

async function runFile(w: World, file: string, outputDir: string, stdout?: PassThrough) {
  const pipeline = await load(file);
  const client = w.client((pipeline.service?.plan ?? 'professional') as PlanName);
  const before = { ...client.requestCounts() };
  const checkpoints = await new CheckpointStore(join(outputDir, '.state'), pipeline.name).load();
  const plan = planPipeline(pipeline, { plan: client.plan, now: w.clock.now(), checkpoints, registry: components });
  const t0 = w.clock.now();
  const result = await run(pipeline, { client, clock: w.clock, outputDir, ...(stdout ? { stdout } : {}) });
  const sent = Object.values(client.requestCounts()).reduce((a, b) => a + b, 0) - Object.values(before).reduce((a, b) => a + b, 0);
  return { pipeline, plan, result, sent, elapsedMs: w.clock.now() - t0, notes: result.events.snapshot().notes };
}

describe('shipped pipelines', () => {
  it('every file parses, documents itself in its first comment line, and is covered below', async () => {
    const files = [...(await readdir(DIR)).filter((f) => f.endsWith('.yaml')), ...(await readdir(join(DIR, 'demo'))).map((f) => `demo/${f}`)];
    expect(files.sort()).toEqual([
      'demo.yaml',
      'demo/1-kline-latest.yaml',
      'demo/2-depth-snapshot.yaml',
      'demo/3-trade-snapshot.yaml',
      'demo/4-trading-halts.yaml',
      'halts.yaml',
      'kline-backfill.yaml',
      'kline-update.yaml',
      'snapshots.yaml',
      'trades-ndjson.yaml',
    ]);
    for (const f of files) {
      const p = await load(f);
      const text = await readFile(join(DIR, f), 'utf8');
      expect(text.startsWith('# ')).toBe(true);
      expect(p.description).toBe(text.split('\n')[0]!.slice(2));
    }
  });

  it('demo.yaml and demo/*: every source into one output, in well under a minute of clock time, gaps all explained', async () => {
    world = await startWorld(START);
    const w = world;
    const out = join(w.dir, 'demo');
    const steps = ['demo.yaml', 'demo/1-kline-latest.yaml', 'demo/2-depth-snapshot.yaml', 'demo/3-trade-snapshot.yaml', 'demo/4-trading-halts.yaml'];
    const t0 = w.clock.now();
    const runs = [];
    for (const f of steps) runs.push(await runFile(w, f, out));
    expect(w.clock.now() - t0).toBeLessThan(60_000);
    for (const r of runs) expect(r.result.status).toBe('succeeded');
    const [history, latest, depth, trade, halts] = runs;
    expect(history!.notes.some((n) => n.includes('AAPL.US 1m') && n.includes('cannot be reached'))).toBe(true);
    expect(history!.result.manifest.rows.kline!.received).toBeGreaterThan(3 * 1440 * 4);
    expect(latest!.result.manifest.rows.kline!.received).toBe(3 * 7 * 2 * 2);
    expect(depth!.notes.some((n) => n.includes('NOSUCH'))).toBe(true);
    expect(depth!.result.manifest.rows.depth!.received).toBe(15 * 4);
    expect(trade!.result.manifest.rows.trade!.received).toBe(15 * 4);
    expect(halts!.result.manifest.rows.halt!.received).toBeGreaterThan(1000);
    const report = await coverageOfOutput(out);
    expect(report.totals.unexplained).toBe(0);
    const klines = await readKlineRows(out);
    expect(new Set(klines.map((k) => k.code)).size).toBe(7);
    expect((await readHaltRows(out)).length).toBe(halts!.result.manifest.rows.halt!.received);
    // The tour's glob queries count each bar once: on disk, exactly the files the manifest lists
    // (the merging step keeps no retired file).
    const onDisk = (await readdir(join(out, 'kline'), { recursive: true })).filter((f) => f.endsWith('.parquet')).sort();
    const manifest = JSON.parse(await readFile(join(out, '_quotelake', 'manifests', 'kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
    expect(onDisk).toEqual(manifest.files.map((f) => f.path).sort());
    // The plan matched what each step sent (within one request per series).
    for (const r of runs) expect(Math.abs(r.plan.totalRequests - r.sent)).toBeLessThanOrEqual(Math.max(1, r.plan.streams.length));
  }, 120_000);

  it('kline-backfill.yaml then a rerun a minute later: only one request per series', async () => {
    world = await startWorld(START);
    const out = join(world.dir, 'bf');
    const first = await runFile(world, 'kline-backfill.yaml', out);
    expect(first.sent).toBe(first.plan.totalRequests);
    // Crypto: 7 days of 1m = 10,080 bars + the forming one = 21 requests; forex and metals skip
    // the weekend (15 requests); every 1h series fits one request.
    const per = Object.fromEntries(first.plan.streams.map((s) => [s.stream, s.requests]));
    expect(per).toEqual({
      'kline/BTCUSDT/1m': 21,
      'kline/BTCUSDT/1h': 1,
      'kline/ETHUSDT/1m': 21,
      'kline/ETHUSDT/1h': 1,
      'kline/EURUSD/1m': 15,
      'kline/EURUSD/1h': 1,
      'kline/GOLD/1m': 15,
      'kline/GOLD/1h': 1,
    });
    world.clock.advance(60_000);
    const second = await runFile(world, 'kline-backfill.yaml', out);
    expect(second.sent).toBe(8);
    expect(second.plan.totalRequests).toBe(8);
    const rows = await readKlineRows(out);
    const btc = rows.filter((r) => r.code === 'BTCUSDT' && r.interval === '1m');
    expect(new Set(btc.map((r) => r.ts)).size).toBe(btc.length);
    expect(btc.filter((r) => !r.final)).toHaveLength(1);
  }, 60_000);

  it('kline-update.yaml: one /batch-kline request per family', async () => {
    world = await startWorld(START);
    const r = await runFile(world, 'kline-update.yaml', join(world.dir, 'up'));
    expect(r.sent).toBe(2);
    expect(r.plan.requests).toEqual({ '/quote-b-api/batch-kline': 1, '/quote-stock-b-api/batch-kline': 1 });
    expect(r.result.manifest.rows.kline!.received).toBe(8 * 2 * 2);
  });

  it('snapshots.yaml: 6 rounds of order books over a minute', async () => {
    world = await startWorld(START);
    const r = await runFile(world, 'snapshots.yaml', join(world.dir, 'snap'));
    expect(r.sent).toBe(12);
    expect(r.plan.totalRequests).toBe(12);
    expect(r.result.manifest.rows.depth!.received).toBe(60);
    expect(r.elapsedMs).toBe(50_000);
    expect(r.plan.estimatedMs).toBe(50_000);
  });

  it('halts.yaml: a second run writes nothing new', async () => {
    world = await startWorld(START);
    const out = join(world.dir, 'halts');
    const first = await runFile(world, 'halts.yaml', out);
    expect(first.result.manifest.rows.halt!.received).toBeGreaterThan(1000);
    world.clock.advance(60_000);
    const second = await runFile(world, 'halts.yaml', out);
    expect(second.sent).toBe(3);
    expect(second.result.manifest.rows.halt!.received).toBe(0);
    expect(second.result.manifest.filesCommitted).toEqual([]);
    expect((await readHaltRows(out)).length).toBe(first.result.manifest.rows.halt!.received);
  });

  it('trades-ndjson.yaml: one JSON line per code on stdout', async () => {
    world = await startWorld(START);
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const r = await runFile(world, 'trades-ndjson.yaml', join(world.dir, 'nd'), stdout);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { code: string; price: string });
    expect(lines.map((l) => l.code).sort()).toEqual(['600000.SH', '700.HK', 'AAPL.US', 'BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'SHIBUSDT']);
    expect(typeof lines[0]!.price).toBe('string');
    expect(r.sent).toBe(2);
  });
});
