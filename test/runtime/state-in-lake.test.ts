/**
 * Checkpoints and run manifests on both backends (I5): a local state folder keeps today's paths, a
 * lake on S3 keeps its state under `_quotelake/state/`. A state written through one storage instance
 * (one "host") is read back and resumed through another, as a run on a second machine would.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../src/core/component.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { CheckpointStore, checkpointPipelines } from '../../src/runtime/checkpoint-store.js';
import { markInterruptedRuns, readRunManifests, runManifestModifiedAt, writeRunManifest, type RunManifest } from '../../src/runtime/run-manifest.js';
import { defaultStateLocation, stateFolder, stateInLake, type StateLocation } from '../../src/runtime/state-location.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { useS3Server } from '../helpers/s3-server.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const server = useS3Server();

interface Backend {
  readonly name: string;
  /** A fresh state location for one test, and a second view of it as another host would open it. */
  open(): Promise<{ first: StateLocation; second: () => StateLocation; expectedPrefix: string; cleanup(): Promise<void> }>;
}

let counter = 0;
const backends: Backend[] = [
  {
    name: 'local state folder',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'ql-state-'));
      return { first: stateFolder(join(dir, '.state')), second: () => stateFolder(join(dir, '.state')), expectedPrefix: join(dir, '.state'), cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 lake (s3rver)',
    async open() {
      const url = `s3://${server().bucket}/state-test-${++counter}`;
      // Two clients, two storages: nothing is shared between the "hosts" but the bucket.
      const first = stateInLake(new S3Storage(server().client(), url));
      return { first, second: () => stateInLake(new S3Storage(server().client(), url)), expectedPrefix: `${url}/_quotelake/state`, cleanup: async () => undefined };
    },
  },
];

const cp = (stream: string, position: Record<string, unknown>): [string, Checkpoint] => [stream, { stream, position }];

function manifest(runId: string, status: RunManifest['status'], pipeline = 'kline-demo'): RunManifest {
  return { version: 1, runId, pipeline, startedAt: NOW.toISOString(), status, requests: { '/kline': 3 }, rows: {}, commits: 1, filesCommitted: [], rejected: 0 };
}

describe.each(backends)('state on a $name', (backend) => {
  let env: Awaited<ReturnType<Backend['open']>>;
  beforeEach(async () => {
    env = await backend.open();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('saves checkpoints that another host loads back, and resumes from them', async () => {
    const store = new CheckpointStore(env.first, 'kline-demo');
    expect(await store.load()).toEqual(new Map());
    // Decimal-looking positions stay strings: nothing goes through a JS number.
    await store.save(new Map([cp('AAPL.US|1m', { ts: '1772445600', last: '187.120000000000000001' }), cp('EURUSD|1m', { ts: '1772445540' })]), { now: NOW, runId: 'r1' });
    expect(store.path).toBe(`${env.expectedPrefix}/checkpoints/kline-demo.json`);

    const other = new CheckpointStore(env.second(), 'kline-demo');
    const file = await other.loadFile();
    expect(file).toEqual({
      version: 1,
      pipeline: 'kline-demo',
      updatedAt: NOW.toISOString(),
      runId: 'r1',
      streams: { 'AAPL.US|1m': { ts: '1772445600', last: '187.120000000000000001' }, 'EURUSD|1m': { ts: '1772445540' } },
    });
    // The second host moves one stream on; the first host sees the new file whole.
    const loaded = await other.load();
    loaded.set('EURUSD|1m', { stream: 'EURUSD|1m', position: { ts: '1772445600' } });
    await other.save(loaded, { now: new Date(NOW.getTime() + 60_000), runId: 'r2' });
    expect((await store.loadFile())?.runId).toBe('r2');
    expect((await store.load()).get('EURUSD|1m')?.position).toEqual({ ts: '1772445600' });
    expect(await checkpointPipelines(env.second())).toEqual(['kline-demo']);
  });

  it('reads an unversioned (0.1.0) file and refuses a newer version', async () => {
    const files = env.first.storage;
    await files.publish(`${env.first.prefix}checkpoints/old.json`, JSON.stringify({ pipeline: 'old', updatedAt: NOW.toISOString(), streams: { a: { ts: '1' } } }));
    expect((await new CheckpointStore(env.second(), 'old').load()).get('a')?.position).toEqual({ ts: '1' });
    await files.publish(`${env.first.prefix}checkpoints/new.json`, JSON.stringify({ version: 99, pipeline: 'new', updatedAt: NOW.toISOString(), streams: {} }));
    await expect(new CheckpointStore(env.second(), 'new').load()).rejects.toThrow(/newer|version/i);
  });

  it('forgets streams (state reset), and removes the file with the last one', async () => {
    const store = new CheckpointStore(env.first, 'kline-demo');
    await store.save(new Map([cp('a', { ts: '1' }), cp('b', { ts: '2' })]), { now: NOW, runId: 'r1' });
    expect(await new CheckpointStore(env.second(), 'kline-demo').remove(['a', 'zz'])).toEqual(['a']);
    expect([...(await store.load()).keys()]).toEqual(['b']);
    expect(await store.remove(['b'])).toEqual(['b']);
    expect(await store.loadFile()).toBeUndefined();
    expect(await checkpointPipelines(env.second())).toEqual([]);
  });

  it('writes run manifests another host reads, and marks a killed run interrupted', async () => {
    const where = await writeRunManifest(env.first, manifest('run-1', 'succeeded'));
    expect(where).toBe(`${env.expectedPrefix}/runs/run-1.json`);
    await writeRunManifest(env.first, manifest('run-2', 'running'));
    await writeRunManifest(env.first, manifest('run-3', 'running', 'other'));
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(await markInterruptedRuns(env.second(), 'kline-demo', later)).toEqual(['run-2']);
    const runs = await readRunManifests(env.second());
    expect(runs.map((r) => [r.runId, r.status, r.finishedAt ?? null])).toEqual([
      ['run-1', 'succeeded', null],
      ['run-2', 'interrupted', later.toISOString()],
      ['run-3', 'running', null],
    ]);
    expect(await runManifestModifiedAt(env.second(), 'run-1')).toBeTypeOf('number');
    expect(await runManifestModifiedAt(env.second(), 'nope')).toBeUndefined();
  });

  it('cleans after a killed run before marking it: a kill during the cleaning leaves it to the next run', async () => {
    await writeRunManifest(env.first, manifest('run-4', 'running'));
    const later = new Date(NOW.getTime() + 3_600_000);
    const killed = markInterruptedRuns(env.second(), 'kline-demo', later, async (ids) => {
      expect(ids).toEqual(['run-4']);
      throw new Error('killed while cleaning');
    });
    await expect(killed).rejects.toThrow('killed while cleaning');
    expect((await readRunManifests(env.second())).map((r) => [r.runId, r.status])).toEqual([['run-4', 'running']]);
    const seen: string[][] = [];
    expect(await markInterruptedRuns(env.second(), 'kline-demo', later, async (ids) => void seen.push(ids))).toEqual(['run-4']);
    expect(seen).toEqual([['run-4']]);
    expect((await readRunManifests(env.second())).map((r) => [r.runId, r.status])).toEqual([['run-4', 'interrupted']]);
    // A run marked before (by a version that marked first and cleaned after) is cleaned again; only new runs are marked.
    await writeRunManifest(env.first, manifest('run-5', 'running'));
    expect(await markInterruptedRuns(env.second(), 'kline-demo', later, async (ids) => void seen.push(ids))).toEqual(['run-5']);
    expect(seen[1]).toEqual(['run-5', 'run-4']);
  });

  it('refuses a run id that would leave the runs folder', async () => {
    await expect(writeRunManifest(env.first, manifest('../escape', 'running'))).rejects.toMatchObject({ code: 'QL_PATH_OUTSIDE_ROOT' });
  });
});

describe('where state lives (I5)', () => {
  it('a local output keeps <output>/.state, exactly the files of before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-state-'));
    try {
      const location = defaultStateLocation(localStorage(join(dir, 'out')), undefined);
      expect(location.dir).toBe(`${join(dir, 'out')}/.state`);
      await new CheckpointStore(location, 'p').save(new Map([cp('s', { ts: '5' })]), { now: NOW });
      await writeRunManifest(location, manifest('r9', 'succeeded', 'p'));
      expect(await readdir(join(dir, 'out', '.state', 'checkpoints'))).toEqual(['p.json']);
      expect(JSON.parse(await readFile(join(dir, 'out', '.state', 'runs', 'r9.json'), 'utf8'))).toMatchObject({ runId: 'r9', status: 'succeeded' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an S3 output keeps it in the lake unless --state-dir is given', () => {
    const lake = new S3Storage(server().client(), `s3://${server().bucket}/prod`);
    const inLake = defaultStateLocation(lake, undefined);
    expect(inLake).toMatchObject({ prefix: '_quotelake/state/', where: `s3://${server().bucket}/prod/_quotelake/state` });
    expect(inLake.storage).toBe(lake);
    expect(defaultStateLocation(lake, '/var/lib/ql')).toMatchObject({ prefix: '', where: '/var/lib/ql', dir: '/var/lib/ql' });
  });
});
