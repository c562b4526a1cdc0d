import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Rejected, RunContext } from '../../src/core/component.js';
import type { ComponentDefinition } from '../../src/core/definition.js';
import { ManualClock } from '../../src/core/clock.js';
import { RejectedRecordError } from '../../src/core/errors.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { createLogger } from '../../src/runtime/logger.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { RUN_ID } from '../../src/runtime/run-id.js';
import { MemoryStore, memorySinkImpl, testRegistry, type Row, type SourceProbe } from '../helpers/test-components.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ql-run-'));
});

function pipeline(source: Record<string, unknown>, options: Record<string, unknown> = {}, transforms: PipelineInput['transforms'] = []): PipelineInput {
  return {
    name: 'test-run',
    source: { type: 'counter', ...source },
    transforms,
    sink: { type: 'memory' },
    options: { onReject: 'drop', ...options },
  };
}

type Commit = ReturnType<typeof memorySinkImpl>['commit'];

/** The memory sink of `registry`, with its commit wrapped (the wrapper calls `inner` itself). */
function withCommit(registry: ReturnType<typeof testRegistry>, wrap: (inner: Commit, ctx: RunContext) => ReturnType<Commit>): ComponentDefinition[] {
  const sinkDef = registry[2]!;
  const wrapped = {
    ...sinkDef,
    create: (config: never, env: never) => {
      const inner = (sinkDef.create as (c: never, e: never) => ReturnType<typeof memorySinkImpl>)(config, env);
      return { ...inner, commit: (ctx: RunContext) => wrap((c) => inner.commit(c), ctx) };
    },
  } as typeof sinkDef;
  return [registry[0]!, wrapped];
}

function keys(rows: readonly Row[]): string[] {
  return rows.map((r) => `${r.stream}#${r.i}`);
}

function expectedKeys(streams: number, batches: number, rowsPerBatch: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < streams; s++) for (let i = 0; i < batches * rowsPerBatch; i++) out.push(`counter/s${s}#${i}`);
  return out;
}

describe('runPipeline', () => {
  it('moves every row, commits by cadence and at the end, saves checkpoints, writes a manifest', async () => {
    const store = new MemoryStore();
    const clock = new ManualClock('2026-11-22T00:40:00Z');
    const r = await runPipeline(pipeline({ streams: 2, batches: 5, rowsPerBatch: 4 }, { commitEveryBatches: 3 }), {
      registry: testRegistry({ store }),
      outputDir: dir,
      clock,
    });
    expect(r.status).toBe('succeeded');
    expect(r.runId).toMatch(RUN_ID);
    expect(r.runId.startsWith('20261122T004000Z-')).toBe(true);
    expect(keys(store.visible)).toEqual(expectedKeys(2, 5, 4));
    // 10 batches, commit every 3 → 3 cadence commits + 1 final.
    expect(store.commits).toBe(4);
    expect(store.recovered).toBe(1);
    expect(store.closed).toBe(1);
    const cps = await new CheckpointStore(join(dir, '.state'), 'test-run').load();
    expect(Object.fromEntries([...cps].map(([k, v]) => [k, v.position]))).toEqual({
      'counter/s0': { next: 5 },
      'counter/s1': { next: 5 },
    });
    const manifest = JSON.parse(await readFile(join(dir, '.state', 'runs', `${r.runId}.json`), 'utf8'));
    expect(manifest).toEqual({
      version: 1,
      runId: r.runId,
      pipeline: 'test-run',
      startedAt: '2026-11-22T00:40:00.000Z',
      finishedAt: '2026-11-22T00:40:00.000Z',
      status: 'succeeded',
      requests: { '/counter': 10 },
      rows: { kline: { received: 40, written: 40, merged: 0, rejected: 0 } },
      streams: { 'counter/s0': { requests: 0, rows: 20 }, 'counter/s1': { requests: 0, rows: 20 } },
      commits: 4,
      filesCommitted: [
        { path: 'mem/part-1', rows: 12, bytes: 120 },
        { path: 'mem/part-2', rows: 12, bytes: 120 },
        { path: 'mem/part-3', rows: 12, bytes: 120 },
        { path: 'mem/part-4', rows: 4, bytes: 40 },
      ],
      rejected: 0,
    });
    expect(r.manifest).toEqual(manifest);
  });

  it('commits by time too (injected clock), and a second run resumes with nothing left to do', async () => {
    const store = new MemoryStore();
    const clock = new ManualClock('2026-11-22T00:00:00Z');
    const probe: SourceProbe = { produced: 0, beforeYield: () => clock.advance(25_000) };
    const registry = testRegistry({ store, probe });
    await runPipeline(pipeline({ batches: 6, rowsPerBatch: 1 }, { commitEveryBatches: 100, commitEveryMs: 60_000 }), {
      registry,
      outputDir: dir,
      clock,
    });
    // 25 s per batch: commit after batches 3 and 6 (75 s, 150 s since the last commit); no final one needed.
    expect(store.commits).toBe(2);
    const again = await runPipeline(pipeline({ batches: 6, rowsPerBatch: 1 }), { registry, outputDir: dir, clock });
    expect(again.manifest.rows.kline).toEqual({ received: 0, written: 0, merged: 0, rejected: 0 });
    expect(probe.produced).toBe(6);
    expect(keys(store.visible)).toEqual(expectedKeys(1, 6, 1));
  });

  it('backpressure: the source is never more than one batch ahead of the sink', async () => {
    const store = new MemoryStore();
    const probe: SourceProbe = { produced: 0 };
    let written = 0;
    let maxAhead = 0;
    store.onWrite = () => {
      written++;
      maxAhead = Math.max(maxAhead, probe.produced - written);
    };
    await runPipeline(pipeline({ batches: 200, rowsPerBatch: 2 }), { registry: testRegistry({ store, probe }), outputDir: dir });
    expect(written).toBe(200);
    expect(maxAhead).toBe(0);
  });

  it('re-chunks big batches by rows and by bytes; only the last piece carries the checkpoint', async () => {
    const store = new MemoryStore();
    await runPipeline(pipeline({ batches: 2, rowsPerBatch: 25 }, { batchMaxRows: 10 }), { registry: testRegistry({ store }), outputDir: dir });
    expect(store.writes.map((w) => [w.seq, w.rows, w.checkpoint])).toEqual([
      [0, 10, false],
      [1, 10, false],
      [2, 5, true],
      [3, 10, false],
      [4, 10, false],
      [5, 5, true],
    ]);
    const byBytes = new MemoryStore();
    // Each row is about 45 bytes of JSON: 100 bytes holds 2 rows.
    await runPipeline(pipeline({ batches: 1, rowsPerBatch: 5 }, { batchMaxBytes: 100 }), { registry: testRegistry({ store: byBytes }), outputDir: join(dir, 'b') });
    expect(byBytes.writes.map((w) => w.rows)).toEqual([2, 2, 1]);
    expect(keys(byBytes.visible)).toEqual(expectedKeys(1, 1, 5));
  });

  it('abort mid-run: commits complete work, saves state, status aborted; the next run resumes with no gap or duplicate', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const probe: SourceProbe = {
      produced: 0,
      beforeYield: (_stream, index) => {
        if (index === 7) controller.abort();
      },
    };
    const registry = testRegistry({ store, probe });
    const p = pipeline({ batches: 12, rowsPerBatch: 3 }, { commitEveryBatches: 5 });
    const first = await runPipeline(p, { registry, outputDir: dir, signal: controller.signal });
    expect(first.status).toBe('aborted');
    // Batches 0..6 were complete (5 by cadence, 2 at abort); batch 7 was never taken.
    expect(keys(store.visible)).toEqual(expectedKeys(1, 7, 3));
    expect(first.manifest.status).toBe('aborted');
    expect(first.manifest.rows.kline).toEqual({ received: 21, written: 21, merged: 0, rejected: 0 });
    const cps = await new CheckpointStore(join(dir, '.state'), 'test-run').load();
    expect(cps.get('counter/s0')?.position).toEqual({ next: 7 });

    probe.beforeYield = undefined;
    const second = await runPipeline(p, { registry, outputDir: dir });
    expect(second.status).toBe('succeeded');
    expect(keys(store.visible)).toEqual(expectedKeys(1, 12, 3));
  });

  it('a source that ends quietly on the signal: the run is aborted, not succeeded', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const probe: SourceProbe = { produced: 0, endOnAbort: true, beforeYield: (_s, index) => (index === 4 ? controller.abort() : undefined) };
    const r = await runPipeline(pipeline({ batches: 10, rowsPerBatch: 2 }), { registry: testRegistry({ store, probe }), outputDir: dir, signal: controller.signal });
    expect(r.status).toBe('aborted');
    expect(r.manifest.status).toBe('aborted');
    expect(keys(store.visible)).toEqual(expectedKeys(1, 4, 2));
  });

  it('a sink each commit rewrites whole (an NDJSON file without state) is committed once, at the end, and not at all by a run that stopped early', async () => {
    const wholeRun = (registry: ReturnType<typeof testRegistry>, commits: { n: number }): ComponentDefinition[] => {
      const [source, sinkDef] = withCommit(registry, (commit, ctx) => {
        commits.n++;
        return commit(ctx);
      });
      const wrapped = { ...sinkDef!, create: (config: never, env: never) => ({ ...(sinkDef!.create as (c: never, e: never) => object)(config, env), wholeRun: true }) } as typeof sinkDef;
      return [source!, wrapped!];
    };
    const store = new MemoryStore();
    const commits = { n: 0 };
    const whole = await runPipeline(pipeline({ batches: 6, rowsPerBatch: 2 }, { commitEveryBatches: 1 }), { registry: wholeRun(testRegistry({ store }), commits), outputDir: dir });
    expect(whole.status).toBe('succeeded');
    expect(commits.n).toBe(1);
    expect(keys(store.visible)).toEqual(expectedKeys(1, 6, 2));

    const controller = new AbortController();
    const probe: SourceProbe = { produced: 0, endOnAbort: true, beforeYield: (_s, index) => (index === 4 ? controller.abort() : undefined) };
    const stoppedEarly = { n: 0 };
    const r = await runPipeline(pipeline({ batches: 10, rowsPerBatch: 2 }, { commitEveryBatches: 1 }), { registry: wholeRun(testRegistry({ store: new MemoryStore(), probe }), stoppedEarly), outputDir: join(dir, 'second'), signal: controller.signal });
    expect(r.status).toBe('aborted');
    expect(stoppedEarly.n).toBe(0);

    // A source cut short by the daily quota ends quietly, the run a success: still no commit.
    const events = createRunEvents();
    const atQuota = { n: 0 };
    const quotaProbe: SourceProbe = { produced: 0, beforeYield: (_s, index) => (index === 3 ? events.stoppedAtQuota() : undefined) };
    const q = await runPipeline(pipeline({ batches: 4, rowsPerBatch: 2 }, { commitEveryBatches: 1 }), { registry: wholeRun(testRegistry({ store: new MemoryStore(), probe: quotaProbe }), atQuota), outputDir: join(dir, 'third'), events });
    expect(q.status).toBe('succeeded');
    expect(atQuota.n).toBe(0);
  });

  it('a signal after the source ended (during the final commit): the run succeeded, everything committed', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const registry = withCommit(testRegistry({ store }), (commit, ctx) => {
      controller.abort();
      return commit(ctx);
    });
    // One commit, at the end: the source has said it is done before the signal.
    const p = pipeline({ batches: 6, rowsPerBatch: 2 }, { commitEveryBatches: 100 });
    const r = await runPipeline(p, { registry, outputDir: dir, signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(r.status).toBe('succeeded');
    expect(r.manifest.status).toBe('succeeded');
    expect(keys(store.visible)).toEqual(expectedKeys(1, 6, 2));
  });

  it('the run signal takes any number of listeners (requests in flight), so Node prints no leak warning', async () => {
    const controller = new AbortController();
    await runPipeline(pipeline({ batches: 1, rowsPerBatch: 1 }), { registry: testRegistry({ store: new MemoryStore() }), outputDir: dir, signal: controller.signal });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const listeners = Array.from({ length: 20 }, () => () => undefined);
    for (const l of listeners) controller.signal.addEventListener('abort', l);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    for (const l of listeners) controller.signal.removeEventListener('abort', l);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('abort while the source is waiting: the pending read is abandoned, earlier batches are committed', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const probe: SourceProbe = {
      produced: 0,
      beforeYield: (_s, index) =>
        index === 3
          ? new Promise<void>(() => {
              // A source stuck on a rate limit that ignores the signal.
              setImmediate(() => controller.abort());
            })
          : undefined,
    };
    const r = await runPipeline(pipeline({ batches: 10, rowsPerBatch: 1 }), { registry: testRegistry({ store, probe }), outputDir: dir, signal: controller.signal });
    expect(r.status).toBe('aborted');
    expect(keys(store.visible)).toEqual(expectedKeys(1, 3, 1));
  });

  it('onReject fail: throws RejectedRecordError naming the first reason; nothing of the failing interval is committed', async () => {
    const store = new MemoryStore();
    const p = pipeline({ batches: 4, rowsPerBatch: 5 }, { onReject: 'fail', commitEveryBatches: 1 }, [{ type: 'reject-every', every: 12 }]);
    const err = await runPipeline(p, { registry: testRegistry({ store }), outputDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedRecordError);
    expect((err as RejectedRecordError).message).toBe('record rejected: value: v0 is a multiple');
    expect(store.visible).toEqual([]);
    expect(store.aborts).toBe(1);
    const runs = await readdir(join(dir, '.state', 'runs'));
    const m = JSON.parse(await readFile(join(dir, '.state', 'runs', runs[0]!), 'utf8'));
    expect(m.status).toBe('failed');
    expect(m.error).toEqual({ code: 'QL_REJECTED', message: 'record rejected: value: v0 is a multiple' });
  });

  it('onReject fail after good batches: earlier commits stay, the failing batch is not committed', async () => {
    const store = new MemoryStore();
    const p = pipeline({ batches: 4, rowsPerBatch: 5 }, { onReject: 'fail', commitEveryBatches: 1 }, [{ type: 'reject-every', every: 15 }]);
    // Start at batch 1 so that i=0 is skipped and the first rejected record is i=15, in batch 3.
    const registry = testRegistry({ store });
    await new CheckpointStore(join(dir, '.state'), 'test-run').save(new Map([['counter/s0', { stream: 'counter/s0', position: { next: 1 } }]]), { now: new Date() });
    await expect(runPipeline(p, { registry, outputDir: dir })).rejects.toThrow('value: v15 is a multiple');
    expect(keys(store.visible)).toEqual(['counter/s0#5', 'counter/s0#6', 'counter/s0#7', 'counter/s0#8', 'counter/s0#9', 'counter/s0#10', 'counter/s0#11', 'counter/s0#12', 'counter/s0#13', 'counter/s0#14']);
    const cps = await new CheckpointStore(join(dir, '.state'), 'test-run').load();
    expect(cps.get('counter/s0')?.position).toEqual({ next: 3 });
  });

  it('onReject drop: counts them and warns once per reason code', async () => {
    const store = new MemoryStore();
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', format: 'json', write: (l) => lines.push(l) });
    const events = createRunEvents();
    const r = await runPipeline(pipeline({ batches: 3, rowsPerBatch: 10 }, { onReject: 'drop' }, [{ type: 'reject-every', every: 4 }]), {
      registry: testRegistry({ store }),
      outputDir: dir,
      logger,
      events,
    });
    expect(store.visible).toHaveLength(22);
    expect(store.visible.some((row) => row.i % 4 === 0)).toBe(false);
    expect(r.manifest.rejected).toBe(8);
    expect(r.manifest.rows.kline).toEqual({ received: 30, written: 22, merged: 0, rejected: 8 });
    const warns = lines.map((l) => JSON.parse(l)).filter((l) => l.msg.startsWith('dropping'));
    expect(warns).toHaveLength(1);
    expect(warns[0]).toMatchObject({ level: 'warn', msg: 'dropping rejected records: value: v0 is a multiple', code: 'QL_TEST_MULTIPLE', field: 'value' });
  });

  it('onReject divert: rejected records go to the rejected writer and are committed right after the data', async () => {
    const store = new MemoryStore();
    const calls: string[] = [];
    const diverted: Rejected[] = [];
    let staged: Rejected[] = [];
    const r = await runPipeline(pipeline({ batches: 2, rowsPerBatch: 5 }, { onReject: 'divert', commitEveryBatches: 1 }, [{ type: 'reject-every', every: 3 }]), {
      registry: testRegistry({ store }),
      outputDir: dir,
      createRejectedWriter: (outputDir) => {
        expect(outputDir).toBe(dir);
        return {
          recover: async () => void calls.push('recover'),
          write: async (dataset, rejected) => {
            calls.push(`write ${dataset} ${rejected.length}`);
            staged.push(...rejected);
          },
          commit: async () => {
            calls.push(`commit after data commit ${store.commits}`);
            diverted.push(...staged);
            const rows = staged.length;
            staged = [];
            return rows > 0 ? [{ path: `_rejected/kline/x-${store.commits}.ndjson`, rows, bytes: 1 }] : [];
          },
          abort: async () => void calls.push('abort'),
        };
      },
    });
    expect(diverted.map((x) => [x.code, (x.record as Row).i])).toEqual([
      ['QL_TEST_MULTIPLE', 0],
      ['QL_TEST_MULTIPLE', 3],
      ['QL_TEST_MULTIPLE', 6],
      ['QL_TEST_MULTIPLE', 9],
    ]);
    expect(calls).toEqual(['recover', 'write kline 2', 'commit after data commit 1', 'write kline 2', 'commit after data commit 2']);
    expect(r.manifest.rejected).toBe(4);
    expect(r.manifest.rows.kline).toEqual({ received: 10, written: 6, merged: 0, rejected: 4 });
    expect(r.manifest.filesCommitted.map((f) => f.path)).toEqual(['mem/part-1', '_rejected/kline/x-1.ndjson', 'mem/part-2', '_rejected/kline/x-2.ndjson']);
  });

  it('onReject divert by default goes through the real RejectedWriter under <output>/_rejected/', async () => {
    const store = new MemoryStore();
    const clock = new ManualClock('2026-11-22T00:40:00Z');
    const p = pipeline({ batches: 2, rowsPerBatch: 5 }, { commitEveryBatches: 1 }, [{ type: 'reject-every', every: 4 }]);
    const r = await runPipeline({ ...p, options: { commitEveryBatches: 1 } }, { registry: testRegistry({ store }), outputDir: dir, clock });
    expect(r.manifest.rows.kline).toEqual({ received: 10, written: 7, merged: 0, rejected: 3 });
    const file = `_rejected/kline/date=2026-11-22/rejected-${r.runId}.ndjson`;
    expect(r.manifest.filesCommitted.filter((f) => f.path.startsWith('_rejected')).map((f) => [f.path, f.rows])).toEqual([
      [file, 2],
      [file, 1],
    ]);
    const lines = (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.code, l.record.i, l.reason])).toEqual([
      ['QL_TEST_MULTIPLE', 0, 'value: v0 is a multiple'],
      ['QL_TEST_MULTIPLE', 4, 'value: v4 is a multiple'],
      ['QL_TEST_MULTIPLE', 8, 'value: v8 is a multiple'],
    ]);
    expect((await readdir(dir)).sort()).toEqual(['.state', '_rejected']);
  });

  it('a look (no state, nothing written into the output) runs while another run holds the output, and touches nothing of it but its rejected records', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { acquireOutputLock } = await import('../../src/runtime/output-lock.js');
    const clock = new ManualClock('2026-11-22T00:40:00Z');
    // Another run's staging and the lock it holds: a look must leave both as they are.
    await mkdir(join(dir, '_quotelake/staging', 'other-run'), { recursive: true });
    await writeFile(join(dir, '_quotelake/staging/other-run/part.parquet'), 'staged');
    const held = await acquireOutputLock(dir, { runId: 'other-run', pipeline: 'backfill', now: new Date(clock.now()) });
    try {
      const store = new MemoryStore();
      const registry = testRegistry({ store });
      const lookSink = { ...registry[2]!, keepsState: () => false, writesOutput: () => false } as ComponentDefinition;
      const look = [...registry.slice(0, 2), lookSink, ...registry.slice(3)];
      const p = pipeline({ batches: 2, rowsPerBatch: 5 }, { commitEveryBatches: 1 }, [{ type: 'reject-every', every: 4 }]);
      const r = await runPipeline({ ...p, options: { commitEveryBatches: 1 } }, { registry: look, outputDir: dir, clock });
      expect(r.status).toBe('succeeded');
      expect(r.manifestPath).toBeUndefined();
      expect(r.manifest.rows.kline).toEqual({ received: 10, written: 7, merged: 0, rejected: 3 });
      expect(store.recovered).toBe(0);
      const file = `_rejected/kline/date=2026-11-22/rejected-${r.runId}.ndjson`;
      const lines = (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.record.i)).toEqual([0, 4, 8]);
      // No run record, no layout, no state; the other run's staging as it was.
      expect((await readdir(dir)).sort()).toEqual(['.quotelake.lock', '_quotelake', '_rejected']);
      expect(await readdir(join(dir, '_quotelake'))).toEqual(['staging']);
      expect(await readFile(join(dir, '_quotelake/staging/other-run/part.parquet'), 'utf8')).toBe('staged');

      // The same pipeline into the output (not a look) is refused while the other run holds it.
      await expect(runPipeline({ ...p, options: { commitEveryBatches: 1 } }, { registry, outputDir: dir, clock })).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    } finally {
      await held.release();
    }
  });

  it('after the sinks recover, clears what is left in <output>/_quotelake/staging and the stale state temp files', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(dir, '_quotelake/staging', 'old-run'), { recursive: true });
    await writeFile(join(dir, '_quotelake/staging', 'old-run', 'kline.parquet.journal.json.tmp-1-abc'), '{"half');
    await mkdir(join(dir, '.state', 'checkpoints'), { recursive: true });
    await writeFile(join(dir, '.state', 'checkpoints', '.test-run.json.tmp-1-abcd'), '{"half');
    const store = new MemoryStore();
    await runPipeline(pipeline({ batches: 1, rowsPerBatch: 1 }), { registry: testRegistry({ store }), outputDir: dir });
    expect(store.recovered).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['.state']);
    expect(await readdir(join(dir, '.state', 'checkpoints'))).toEqual(['test-run.json']);
  });

  it('marks a run left "running" by a killed process as interrupted', async () => {
    const store = new MemoryStore();
    const { writeRunManifest } = await import('../../src/runtime/run-manifest.js');
    const stateDir = join(dir, '.state');
    await writeRunManifest(stateDir, {
      version: 1, runId: '20261121T000000Z-aaaaaa', pipeline: 'test-run', startedAt: '2026-11-21T00:00:00.000Z',
      status: 'running', requests: {}, rows: {}, commits: 0, filesCommitted: [], rejected: 0,
    });
    await runPipeline(pipeline({ batches: 1, rowsPerBatch: 1 }), { registry: testRegistry({ store }), outputDir: dir, clock: new ManualClock('2026-11-22T00:00:00Z') });
    const old = JSON.parse(await readFile(join(stateDir, 'runs', '20261121T000000Z-aaaaaa.json'), 'utf8'));
    expect(old.status).toBe('interrupted');
    expect(old.finishedAt).toBe('2026-11-22T00:00:00.000Z');
  });
});

describe('runPipeline counting', () => {
  it('counts rows once even when the sink reports them too', async () => {
    const store = new MemoryStore();
    const registry = withCommit(testRegistry({ store }), async (commit, ctx) => {
      const receipt = await commit(ctx);
      ctx.events.rows('kline', 'written', receipt.rows);
      return receipt;
    });
    const events = createRunEvents();
    const r = await runPipeline(pipeline({ batches: 2, rowsPerBatch: 3 }), { registry, outputDir: dir, events });
    expect(r.manifest.rows.kline).toEqual({ received: 6, written: 6, merged: 0, rejected: 0 });
    expect(events.snapshot().rows.kline).toEqual({ received: 6, written: 6, merged: 0, rejected: 0 });
    // Rows received are also counted per stream (the batch's stream key).
    const byStream = events.snapshot().rowsByStream;
    expect(Object.values(byStream).reduce((a, b) => a + b, 0)).toBe(6);
    expect(Object.keys(byStream).length).toBeGreaterThan(0);
  });
});

describe('runPipeline manifest extras', () => {
  it('records the quota left when the client reports it, and the error of a failed run', async () => {
    const events = createRunEvents();
    events.quota(41);
    const r = await runPipeline(pipeline({ batches: 1, rowsPerBatch: 1 }), { registry: testRegistry({}), outputDir: dir, events });
    expect(r.manifest.quotaLeft).toBe(41);
    const probe: SourceProbe = {
      produced: 0,
      beforeYield: () => {
        throw new Error('service unreachable');
      },
    };
    const dir2 = join(dir, 'second');
    await expect(runPipeline(pipeline({ batches: 1, rowsPerBatch: 1 }), { registry: testRegistry({ probe }), outputDir: dir2 })).rejects.toThrow('service unreachable');
    const [name] = await readdir(join(dir2, '.state', 'runs'));
    const m = JSON.parse(await readFile(join(dir2, '.state', 'runs', name!), 'utf8'));
    expect(m).toMatchObject({ status: 'failed', error: { code: 'QL_INTERNAL', message: 'service unreachable' }, commits: 0 });
    // The lock is released even when the run fails.
    expect((await readdir(dir2)).sort()).toEqual(['.state']);
  });
});
