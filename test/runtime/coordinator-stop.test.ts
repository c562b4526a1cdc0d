/**
 * The shared limiter's Redis went away mid-run: no request can be admitted any more, but the whole
 * batches already read are committed (with their checkpoints) before the run fails, so the next
 * run resumes after them. Any other source error still discards the uncommitted interval.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoordinatorDownError } from '../../src/core/errors.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { MemoryStore, testRegistry, type SourceProbe } from '../helpers/test-components.js';

const PIPELINE = {
  name: 'stop-run',
  source: { type: 'counter', streams: 1, batches: 10, rowsPerBatch: 2 },
  transforms: [],
  sink: { type: 'memory' },
  options: { onReject: 'drop' as const, commitEveryBatches: 100 },
};

function failingAt(batch: number, error: () => Error): SourceProbe {
  return {
    produced: 0,
    beforeYield: (_stream, index) => {
      if (index === batch) throw error();
    },
  };
}

describe('a coordinator lost mid-run', () => {
  it('commits the whole batches read so far, then fails with QL_COORDINATOR_DOWN', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-stop-'));
    const store = new MemoryStore();
    const probe = failingAt(4, () => new CoordinatorDownError('redis://127.0.0.1:6379', 'ECONNREFUSED'));
    await expect(runPipeline(PIPELINE, { registry: testRegistry({ store, probe }), outputDir: dir })).rejects.toMatchObject({ code: 'QL_COORDINATOR_DOWN' });
    expect(store.visible.map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const checkpoints = await new CheckpointStore(join(dir, '.state'), 'stop-run').load();
    expect(checkpoints.get('counter/s0')?.position).toEqual({ next: 4 });
    const [name] = await readdir(join(dir, '.state', 'runs'));
    expect(JSON.parse(await readFile(join(dir, '.state', 'runs', name!), 'utf8'))).toMatchObject({ status: 'failed', error: { code: 'QL_COORDINATOR_DOWN' } });
  });

  it('any other source error still commits nothing of the interval', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-stop-'));
    const store = new MemoryStore();
    const probe = failingAt(4, () => new Error('service unreachable'));
    await expect(runPipeline(PIPELINE, { registry: testRegistry({ store, probe }), outputDir: dir })).rejects.toThrow('service unreachable');
    expect(store.visible).toEqual([]);
  });
});
