/**
 * repairLayout on a folder and on S3: a damaged or lost layout file is written again with the
 * lake id the checkpoints name; nothing is written on a dry run, for a sound file, or when no
 * checkpoint names a lake; two lakes' checkpoints and an unfinished migration are refused.
 */
import { describe, expect, it } from 'vitest';
import { SinkError } from '../../src/core/errors.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { repairLayout } from '../../src/runtime/repair-layout.js';
import { defaultStateLocation } from '../../src/runtime/state-location.js';
import { BACKENDS, readText, useLakesOf, type TestLakes } from '../lake/test-lakes.js';

const NOW = new Date('2026-11-20T00:00:00Z');
const ID = '0123456789abcdef';
const LAYOUT = '_quotelake/layout.json';

describe.each(BACKENDS)('repairLayout (%s)', (backend) => {
  let lakes: TestLakes;
  useLakesOf(backend, (l) => (lakes = l));

  /** A lake with a manifest and the checkpoints of `pipelines`, each saved for its lake id. */
  async function lakeWith(pipelines: Record<string, string>): Promise<{ out: string; storage: LakeStorage }> {
    const out = await lakes.fresh();
    const storage = lakes.storage(out) ?? localStorage(out);
    await lakes.write(out, '_quotelake/manifests/kline.parquet.json', '{}');
    await lakes.write(out, LAYOUT, `${JSON.stringify({ version: 2, quotelakeVersion: '0.1.0', updatedAt: NOW.toISOString(), lakeId: ID })}\n`);
    const state = defaultStateLocation(storage, undefined);
    for (const [pipeline, lake] of Object.entries(pipelines)) {
      await new CheckpointStore(state, pipeline, 'parquet', { id: lake, where: out }).save(new Map([['kline/BTCUSDT/1m', { stream: 'kline/BTCUSDT/1m', position: { lastTs: 1 } }]]), { now: NOW });
    }
    return { out, storage };
  }
  const repair = (storage: LakeStorage, dryRun = false) => repairLayout(storage, defaultStateLocation(storage, undefined), { dryRun, now: NOW });

  it('writes a damaged file again with the id of the checkpoints; a dry run only says so', async () => {
    const { out, storage } = await lakeWith({ 'kline-backfill': ID, 'kline-update': ID });
    expect(await repair(storage)).toBeUndefined();
    await lakes.write(out, LAYOUT, '{torn');
    const look = await repair(storage, true);
    expect(look).toMatchObject({ lakeId: ID, pipelines: ['kline-backfill', 'kline-update'], written: false });
    expect(look!.problem).toMatch(/layout\.json is not valid JSON/);
    expect(await readText(lakes, out, LAYOUT)).toBe('{torn');
    expect(await repair(storage)).toMatchObject({ lakeId: ID, written: true });
    expect(JSON.parse(await readText(lakes, out, LAYOUT))).toMatchObject({ version: 2, lakeId: ID });
    expect(await repair(storage)).toBeUndefined();
  });

  it('writes a lost file again when checkpoints name the lake, and leaves it to the run when none does', async () => {
    const named = await lakeWith({ 'kline-backfill': ID });
    await named.storage.delete(LAYOUT);
    expect(await repair(named.storage)).toMatchObject({ problem: expect.stringMatching(/layout\.json is missing$/), lakeId: ID, written: true });
    expect(JSON.parse(await readText(lakes, named.out, LAYOUT))).toMatchObject({ version: 2, lakeId: ID });
    const unnamed = await lakeWith({});
    await unnamed.storage.delete(LAYOUT);
    expect(await repair(unnamed.storage)).toBeUndefined();
    expect(await lakes.keys(unnamed.out, '_quotelake')).toEqual(['manifests/kline.parquet.json']);
  });

  it('a file with no valid version or a lake id that is not one is damaged; a newer layout is not', async () => {
    const { out, storage } = await lakeWith({ 'kline-backfill': ID });
    await lakes.write(out, LAYOUT, '{"lakeId":"0123456789abcdef"}');
    expect((await repair(storage, true))!.problem).toMatch(/has no valid layout version \(found none\)/);
    await lakes.write(out, LAYOUT, '{"version":2,"lakeId":"../x"}');
    expect((await repair(storage, true))!.problem).toMatch(/has a lake id that is not one \("\.\.\/x"\)/);
    await lakes.write(out, LAYOUT, '{"version":99}');
    await expect(repair(storage)).rejects.toThrow(/lake layout version 99 is newer than this quotelake reads/);
  });

  it('refuses checkpoints of two lakes, and a migration under way', async () => {
    const { out, storage } = await lakeWith({ a: ID, b: 'fedcba9876543210' });
    await lakes.write(out, LAYOUT, '[]');
    const error = await repair(storage).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkError);
    expect((error as SinkError).message).toMatch(/the checkpoints name 2 lakes: 0123456789abcdef \(a\), fedcba9876543210 \(b\)$/);
    expect((error as SinkError).hint).toMatch(/give --state-dir the folder of this output's own runs/);
    expect(await readText(lakes, out, LAYOUT)).toBe('[]');
    const migrating = await lakeWith({ a: ID });
    await lakes.write(migrating.out, LAYOUT, '{torn');
    await lakes.write(migrating.out, '_quotelake/migration/journal.json', '{}');
    await expect(repair(migrating.storage)).rejects.toThrow(/a migration from layout 1 is under way/);
  });
});
