/**
 * `fullRefresh` and `CheckpointStore.remove` (state reset): the old state is never deleted up
 * front, so a run that dies half-way through a full refresh leaves positions a later run can use.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { MemoryStore, testRegistry, type SourceProbe } from '../helpers/test-components.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ql-refresh-'));
});

const pipeline: PipelineInput = {
  name: 'refresh',
  source: { type: 'counter', streams: 2, batches: 3, rowsPerBatch: 2 },
  transforms: [],
  sink: { type: 'memory' },
  options: { commitEveryBatches: 1 },
};
const clock = () => new ManualClock('2026-11-22T00:00:00Z');
const stateDir = () => join(dir, '.state');
const positions = async () => Object.fromEntries([...(await new CheckpointStore(stateDir(), 'refresh').load())].map(([k, v]) => [k, v.position]));

describe('run with fullRefresh', () => {
  it('reads everything again and leaves the same checkpoints', async () => {
    const probe: SourceProbe = { produced: 0 };
    const registry = testRegistry({ probe, store: new MemoryStore() });
    await runPipeline(pipeline, { registry, outputDir: dir, clock: clock() });
    expect(probe.produced).toBe(6);
    await runPipeline(pipeline, { registry, outputDir: dir, clock: clock() });
    expect(probe.produced).toBe(6); // a plain rerun reads nothing
    await runPipeline(pipeline, { registry, outputDir: dir, clock: clock(), fullRefresh: true });
    expect(probe.produced).toBe(12);
    expect(await positions()).toEqual({ 'counter/s0': { next: 3 }, 'counter/s1': { next: 3 } });
  });

  it('a run that dies half-way keeps the old position of every stream it did not reach', async () => {
    const registry = testRegistry({ store: new MemoryStore() });
    await runPipeline(pipeline, { registry, outputDir: dir, clock: clock() });
    const before = await readFile(join(stateDir(), 'checkpoints', 'refresh.json'), 'utf8');

    // Dies before the first commit: the file is untouched, byte for byte.
    const dies = (stream: string, index: number) => (s: string, i: number) => {
      if (s === stream && i === index) throw new Error('killed');
    };
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ probe: { produced: 0, beforeYield: dies('counter/s0', 0) } }), outputDir: dir, clock: clock(), fullRefresh: true }),
    ).rejects.toThrow('killed');
    expect(await readFile(join(stateDir(), 'checkpoints', 'refresh.json'), 'utf8')).toBe(before);

    // Dies after one commit of stream s0: s0 moved to the refresh's position, s1 kept its old one.
    await expect(
      runPipeline(pipeline, { registry: testRegistry({ probe: { produced: 0, beforeYield: dies('counter/s0', 1) } }), outputDir: dir, clock: clock(), fullRefresh: true }),
    ).rejects.toThrow('killed');
    expect(await positions()).toEqual({ 'counter/s0': { next: 1 }, 'counter/s1': { next: 3 } });

    // The next plain run resumes from there: s0's two remaining batches, nothing of s1.
    const probe: SourceProbe = { produced: 0 };
    await runPipeline(pipeline, { registry: testRegistry({ probe }), outputDir: dir, clock: clock() });
    expect(probe.produced).toBe(2);
    expect(await positions()).toEqual({ 'counter/s0': { next: 3 }, 'counter/s1': { next: 3 } });
  });
});

describe('CheckpointStore.remove', () => {
  it('rewrites the file without the streams, keeps who saved it, and removes it when none is left', async () => {
    const store = new CheckpointStore(stateDir(), 'refresh');
    const cp = (stream: string, next: number) => [stream, { stream, position: { next } }] as const;
    await store.save(new Map([cp('kline/BTCUSDT/1m', 5), cp('kline/ETHUSDT/1m', 7)]), { now: new Date('2026-11-22T00:00:00Z'), runId: 'r1' });
    expect(await store.remove(['kline/BTCUSDT/1m', 'kline/NOPE/1m'])).toEqual(['kline/BTCUSDT/1m']);
    const file = await store.loadFile();
    expect(file).toMatchObject({ version: 1, pipeline: 'refresh', updatedAt: '2026-11-22T00:00:00.000Z', runId: 'r1', streams: { 'kline/ETHUSDT/1m': { next: 7 } } });
    expect(Object.keys(file!.streams)).toEqual(['kline/ETHUSDT/1m']);
    expect(await store.remove(['kline/BTCUSDT/1m'])).toEqual([]);
    expect(await store.remove(['kline/ETHUSDT/1m'])).toEqual(['kline/ETHUSDT/1m']);
    expect(await store.loadFile()).toBeUndefined();
    expect(await readdir(join(stateDir(), 'checkpoints'))).toEqual([]);
  });
});
