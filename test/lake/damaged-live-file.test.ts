/**
 * A live file of the lake that a commit must merge with is damaged or gone: the run fails naming
 * the file and what to do (the decoder's "Corrupt footer" alone named nothing), and commits nothing;
 * `repair` drops such files in one commit, and a run of the reset series brings the rows back.
 */
import { copyFile, readdir, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { SinkError } from '../../src/core/errors.js';
import { runContext, startWorld, type World } from '../sources/helpers/world.js';
import { streamsOf } from '../../src/cli/actions/repair.js';
import { readKlineRows } from '../../src/coverage/index.js';
import { readManifest } from '../../src/lake/commit/manifest.js';
import { readDeltaSnapshot } from '../../src/lake/delta/delta-snapshot.js';
import { repairLake } from '../../src/lake/repair-lake.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { run } from '../sources/helpers/run.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const pipeline = {
  name: 'btc',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1m'], since: '2026-03-03T00:00:00Z' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'parquet' },
};

describe('a damaged or missing live file', () => {
  it.each(['damaged', 'missing'])('%s: the next commit into its partition fails naming it, with the way out', async (harm) => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, harm);
    await run(pipeline, { client, clock: world.clock, outputDir });
    const folder = join(outputDir, 'kline/interval=1m/year=2026/date=2026-03-03');
    const [name] = await readdir(folder);
    if (harm === 'damaged') await truncate(join(folder, name!), 1000);
    else await rm(join(folder, name!));
    world.clock.set('2026-03-03T12:30:30.000Z');
    const error = await run(pipeline, { client, clock: world.clock, outputDir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SinkError);
    const message = (error as Error).message;
    expect(message).toContain(`kline/interval=1m/year=2026/date=2026-03-03/${name}`);
    expect(message).toMatch(harm === 'damaged' ? /cannot be read, the file is damaged \(.*Parquet/ : /is listed but missing/);
    // The command to paste names this output, not a placeholder.
    expect(describeError(error).hint).toContain(`restore it from a backup (same name, same bytes), or drop it with "quotelake repair --output ${outputDir} --dry-run", then --yes`);
  });
});

describe('repairLake', () => {
  it.each(['hive', 'delta'] as const)('%s: drops the missing and the damaged file in one commit; the series reset, a run brings every row back', async (table) => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, `repair-${table}`);
    const withTable = { ...pipeline, source: { ...pipeline.source, codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m', '1h'] }, sink: { type: 'parquet', table } };
    await run(withTable, { client, clock: world.clock, outputDir });
    // Final bars with their values: a forming one moves on by the next run.
    const keysOf = async () => (await readKlineRows(outputDir)).filter((r) => r.final).map((r) => `${r.code} ${r.interval} ${r.ts} ${r.close}`).sort();
    const before = await keysOf();
    const minutes = join(outputDir, 'kline/interval=1m/year=2026/date=2026-03-03');
    const hours = join(outputDir, 'kline/interval=1h/year=2026/date=2026-03-03');
    const [damaged] = await readdir(minutes);
    const [missing] = await readdir(hours);
    await truncate(join(minutes, damaged!), 1000);
    await rm(join(hours, missing!));
    const ctx = runContext(world.clock);
    const looked = await repairLake(outputDir, { ctx, dryRun: true });
    expect(looked.map((r) => [r.dataset, r.delta, r.files, r.dropped.map((d) => [d.key, d.problem.split(' ')[0], d.series])])).toEqual([
      [
        'kline',
        table === 'delta',
        2,
        [
          [`kline/interval=1h/year=2026/date=2026-03-03/${missing}`, 'missing', ['BTCUSDT', 'EURUSD']],
          [`kline/interval=1m/year=2026/date=2026-03-03/${damaged}`, 'damaged', ['BTCUSDT', 'EURUSD']],
        ],
      ],
    ]);
    expect(streamsOf(looked[0]!)).toEqual(['kline/BTCUSDT/1h', 'kline/BTCUSDT/1m', 'kline/EURUSD/1h', 'kline/EURUSD/1m']);
    // A dry run changes nothing: the next commit still stops at them.
    expect((await repairLake(outputDir, { ctx, dryRun: true }))[0]!.dropped).toHaveLength(2);
    const done = await repairLake(outputDir, { ctx, dryRun: false });
    expect(done[0]!.dropped).toHaveLength(2);
    expect((await repairLake(outputDir, { ctx, dryRun: true }))[0]!.dropped).toEqual([]);
    const storage = localStorage(outputDir);
    expect((await readManifest(storage, 'kline', 'parquet'))!.files).toEqual([]);
    if (table === 'delta') expect((await readDeltaSnapshot(storage, 'kline'))!.files.size).toBe(0);
    // The streams reset, a run fetches them again: the lake holds what it held, and more.
    const store = new CheckpointStore(join(outputDir, '.state'), 'btc');
    expect(await store.remove(streamsOf(done[0]!))).toHaveLength(4);
    world.clock.set('2026-03-03T12:30:30.000Z');
    await run(withTable, { client, clock: world.clock, outputDir });
    const after = new Set(await keysOf());
    for (const key of before) expect(after.has(key), key).toBe(true);
    expect(after.size).toBeGreaterThan(before.length);
  });
});

describe('repairLake, a file that still decodes', () => {
  it('names a live file whose bytes are not those committed (another valid file restored in its place) and drops it', async () => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, 'repair-changed');
    await run({ ...pipeline, source: { ...pipeline.source, intervals: ['1m', '1h'] } }, { client, clock: world.clock, outputDir });
    const minutes = join(outputDir, 'kline/interval=1m/year=2026/date=2026-03-03');
    const hours = join(outputDir, 'kline/interval=1h/year=2026/date=2026-03-03');
    const [changed] = await readdir(minutes);
    const [other] = await readdir(hours);
    // A valid Parquet file of the same schema: every reader decodes it, with other values.
    await copyFile(join(hours, other!), join(minutes, changed!));
    const ctx = runContext(world.clock);
    const [looked] = await repairLake(outputDir, { ctx, dryRun: true });
    expect(looked!.dropped.map((d) => [d.key, d.problem])).toEqual([
      [`kline/interval=1m/year=2026/date=2026-03-03/${changed}`, expect.stringMatching(/^changed since its commit \(\d+ of \d+ bytes, sha256 not the one committed\): its values cannot be trusted$/)],
    ]);
    const [done] = await repairLake(outputDir, { ctx, dryRun: false });
    expect(done!.dropped).toHaveLength(1);
    expect((await readManifest(localStorage(outputDir), 'kline', 'parquet'))!.files.map((f) => f.path)).toEqual([`interval=1h/year=2026/date=2026-03-03/${other}`]);
  });
});

describe('repairLake, cut short', () => {
  it('a repair killed after its Delta version and before its manifest is finished by the next one, not taken for a conflict', async () => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, 'repair-cut');
    await run({ ...pipeline, sink: { type: 'parquet', table: 'delta' } }, { client, clock: world.clock, outputDir });
    const folder = join(outputDir, 'kline/interval=1m/year=2026/date=2026-03-03');
    const [name] = await readdir(folder);
    await truncate(join(folder, name!), 1000);
    const ctx = runContext(world.clock);
    const cut = await repairLake(outputDir, {
      ctx,
      dryRun: false,
      hooks: {
        afterStep: (step) => {
          if (step === 'delta') throw new Error('killed');
        },
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(cut)).toMatch(/killed|repair failed/);
    const storage = localStorage(outputDir);
    expect((await readDeltaSnapshot(storage, 'kline'))!.files.size).toBe(0);
    expect((await readManifest(storage, 'kline', 'parquet'))!.files).toHaveLength(1);
    // The next repair rolls the journal forward first (the version is in the log already): nothing left to drop.
    const again = await repairLake(outputDir, { ctx, dryRun: false });
    expect(again[0]!.dropped).toEqual([]);
    expect((await readManifest(storage, 'kline', 'parquet'))!.files).toEqual([]);
  });
});

describe('repairLake, a halt file', () => {
  it('names the exchange as its series (the stream to reset), not each announcement of the file; a run of the reset stream brings the rows back', async () => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, 'repair-halt');
    const halts = { name: 'halts', source: { type: 'trading-halts', exchanges: ['nyse'] }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet' } };
    await run(halts, { client, clock: world.clock, outputDir });
    const storage = localStorage(outputDir);
    const rowsBefore = (await readManifest(storage, 'halt', 'parquet'))!.files.reduce((n, f) => n + f.rows, 0);
    const folder = join(outputDir, 'halt/exchange=nyse/year=2026');
    const [name] = await readdir(folder);
    await truncate(join(folder, name!), 100);
    const ctx = runContext(world.clock);
    const [looked] = await repairLake(outputDir, { ctx, dryRun: true });
    expect(looked!.dropped.map((d) => [d.key, d.series])).toEqual([[`halt/exchange=nyse/year=2026/${name}`, ['nyse']]]);
    expect(streamsOf(looked!)).toEqual(['halt/nyse']);
    const [done] = await repairLake(outputDir, { ctx, dryRun: false });
    expect(await new CheckpointStore(join(outputDir, '.state'), 'halts').remove(streamsOf(done!))).toEqual(['halt/nyse']);
    world.clock.set('2026-03-03T12:10:30.000Z');
    await run(halts, { client, clock: world.clock, outputDir });
    expect((await readManifest(storage, 'halt', 'parquet'))!.files.reduce((n, f) => n + f.rows, 0)).toBe(rowsBefore);
  });
});
