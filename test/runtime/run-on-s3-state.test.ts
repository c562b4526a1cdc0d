/**
 * A run whose lake is on S3 (s3rver) keeps its state in the lake: a second "host" (another storage
 * instance, another scratch folder) resumes where the first stopped, and a live lease keeps a second
 * writer out. The data side of an S3 run is not exercised here (the memory sink writes nowhere).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { acquireLakeLease, LEASE_KEY } from '../../src/runtime/lake-lease.js';
import { readRunManifests } from '../../src/runtime/run-manifest.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { stateInLake } from '../../src/runtime/state-location.js';
import { useS3Server } from '../helpers/s3-server.js';
import { MemoryStore, testRegistry, type SourceProbe } from '../helpers/test-components.js';

const server = useS3Server();
const pipeline: PipelineInput = {
  name: 'handoff',
  source: { type: 'counter', streams: 2, batches: 3, rowsPerBatch: 2 },
  transforms: [],
  sink: { type: 'memory' },
  options: { commitEveryBatches: 1 },
};
const clock = () => new ManualClock('2026-11-22T00:00:00Z');

let scratch: string[] = [];
let n = 0;
beforeEach(() => {
  scratch = [];
});
afterEach(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** One "host": its own S3 client and storage instance, and its own local scratch folder. */
async function host(url: string) {
  const dir = await mkdtemp(join(tmpdir(), 'ql-host-'));
  scratch.push(dir);
  return { dir, lake: new S3Storage(server().client(), url) };
}

describe('a run on an S3 lake', () => {
  it('saves its state under _quotelake/state/, and another host resumes from it', async () => {
    const url = `s3://${server().bucket}/handoff-${++n}`;
    const a = await host(url);
    const probeA: SourceProbe = { produced: 0 };
    const first = await runPipeline(pipeline, { registry: testRegistry({ probe: probeA, store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: clock(), runId: 'run-a' });
    expect(probeA.produced).toBe(6);
    expect(first.manifestPath).toBe(`${url}/_quotelake/state/runs/run-a.json`);
    expect((await a.lake.list('_quotelake/')).sort()).toEqual(['_quotelake/state/checkpoints/handoff.json', '_quotelake/state/runs/run-a.json']);
    // Nothing of the state stayed on host A's disk, and the lease is gone.
    expect(await readdir(a.dir)).not.toContain('.state');
    expect(await a.lake.exists(LEASE_KEY)).toBe(false);

    const b = await host(url);
    const probeB: SourceProbe = { produced: 0 };
    const second = await runPipeline(pipeline, { registry: testRegistry({ probe: probeB, store: new MemoryStore() }), outputDir: b.dir, storage: b.lake, clock: clock(), runId: 'run-b' });
    expect(second.status).toBe('succeeded');
    expect(probeB.produced).toBe(0); // resumed: everything was already committed by host A
    const positions = Object.fromEntries([...(await new CheckpointStore(stateInLake(b.lake), 'handoff').load())].map(([k, v]) => [k, v.position]));
    expect(positions).toEqual({ 'counter/s0': { next: 3 }, 'counter/s1': { next: 3 } });
    expect((await readRunManifests(stateInLake(a.lake))).map((r) => [r.runId, r.status])).toEqual([
      ['run-a', 'succeeded'],
      ['run-b', 'succeeded'],
    ]);
  });

  it('with --state-dir, keeps the state in that local folder (I5)', async () => {
    const url = `s3://${server().bucket}/handoff-${++n}`;
    const a = await host(url);
    await runPipeline(pipeline, { registry: testRegistry({ store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, stateDir: join(a.dir, 'st'), clock: clock(), runId: 'run-a' });
    expect(await readdir(join(a.dir, 'st', 'checkpoints'))).toEqual(['handoff.json']);
    expect(await a.lake.list('_quotelake/state/')).toEqual([]);
  });

  it('refuses to start while another run holds a live lease', async () => {
    const url = `s3://${server().bucket}/handoff-${++n}`;
    const a = await host(url);
    const other = await acquireLakeLease(a.lake, { runId: 'run-live', pipeline: 'other' }, { clock: clock(), host: 'host-x', pid: 4242, every: () => () => undefined });
    const probe: SourceProbe = { produced: 0 };
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ probe, store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: clock(), leaseClock: clock(), runId: 'run-b' }),
    ).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED', message: expect.stringContaining('run-live of pipeline other (pid 4242 on host-x)') });
    expect(probe.produced).toBe(0);
    await other.release();
  });

  it('the lease counts real time, not the run\'s clock: a run a week ahead still sees a live lease, one a week back takes a free one', async () => {
    const url = `s3://${server().bucket}/handoff-${++n}`;
    const a = await host(url);
    // Held now, in real time, by another process.
    const other = await acquireLakeLease(a.lake, { runId: 'run-live', pipeline: 'other' }, { clock: { now: () => Date.now() }, host: 'host-x', pid: 4242, every: () => () => undefined });
    // A run whose "now" is a week later (as `--clock` can make it) must not take the lease over.
    const later = new ManualClock(Date.now() + 7 * 86_400_000);
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: later, runId: 'run-later' }),
    ).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    await other.release();
    // And a run whose "now" is days back takes a free lease, and leaves none behind.
    const earlier = new ManualClock(Date.now() - 7 * 86_400_000);
    await runPipeline(pipeline, { registry: testRegistry({ store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: earlier, runId: 'run-earlier' });
    const fresh = await acquireLakeLease(a.lake, { runId: 'run-next', pipeline: 'next' }, { clock: { now: () => Date.now() }, every: () => () => undefined });
    await fresh.release();
  });

  it('a run whose lease ran out unrenewed stops before its next commit (QL_LAKE_LEASE_LOST)', async () => {
    const url = `s3://${server().bucket}/handoff-${++n}`;
    const a = await host(url);
    const frozen = clock();
    // After the first commit the lease's clock jumps past the 60 s lease without a heartbeat having
    // run (the timer is real, the injected clock is not): the lease is no longer known to be held.
    const probe: SourceProbe = {
      produced: 0,
      beforeYield: (stream, index) => {
        if (stream === 'counter/s0' && index === 1) frozen.advance(61_000);
      },
    };
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ probe, store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: frozen, leaseClock: frozen, runId: 'run-late' }),
    ).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_LOST' });
    const saved = await new CheckpointStore(stateInLake(a.lake), 'handoff').load();
    // Only what was committed before the lease ran out: stream s0's first batch.
    expect(Object.fromEntries([...saved].map(([k, v]) => [k, v.position]))).toEqual({ 'counter/s0': { next: 1 } });
    expect((await readRunManifests(stateInLake(a.lake))).map((r) => [r.runId, r.status, r.error?.code])).toEqual([['run-late', 'failed', 'QL_LAKE_LEASE_LOST']]);
  });

  it('an s3:// state dir other than the lake\'s own is refused', async () => {
    const a = await host(`s3://${server().bucket}/handoff-${++n}`);
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, stateDir: `s3://${server().bucket}/elsewhere`, clock: clock() }),
    ).rejects.toMatchObject({ code: 'QL_CONFIG' });
  });

  it('warns that exclusion is not enforced on a store that ignores conditional writes (s3rver)', async () => {
    const a = await host(`s3://${server().bucket}/handoff-${++n}`);
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, ...(fields ? { fields } : {}) }) };
    await runPipeline(pipeline, { registry: testRegistry({ store: new MemoryStore() }), outputDir: a.dir, storage: a.lake, clock: clock(), logger });
    expect(warnings).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('ignores conditional writes'), fields: expect.objectContaining({ event: 'lock', lease: `${a.lake.root}/_quotelake/lock` }) }),
    );
  });
});
