/** What a run keeps when its sink is an NDJSON file: checkpoints by default, and the file accumulates. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ComponentDefinition } from '../../src/core/definition.js';
import { StateConflictError } from '../../src/core/errors.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { ndjsonSink } from '../../src/sinks/ndjson/index.js';
import { counterSource, type SourceProbe } from '../helpers/test-components.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ql-file-state-'));
});

const input = (batches: number, sink: Record<string, unknown> = {}) => ({
  name: 'export',
  source: { type: 'counter', batches, rowsPerBatch: 4 },
  sink: { type: 'ndjson', path: 'exports/{dataset}.ndjson', ...sink },
  options: { onReject: 'drop' as const, commitEveryBatches: 2 },
});

async function lines(): Promise<number[]> {
  const text = await readFile(join(dir, 'exports/kline.ndjson'), 'utf8');
  return text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { i: number }).i);
}

async function checkpoints(): Promise<Record<string, unknown>> {
  const cps = await new CheckpointStore(join(dir, '.state'), 'export').load();
  return Object.fromEntries([...cps].map(([k, v]) => [k, v.position]));
}

describe('an NDJSON file sink and the run state', () => {
  it('keeps state by default: the second run fetches only what is new, and the file holds the rows of both', async () => {
    const probe: SourceProbe = { produced: 0 };
    const registry = [counterSource(probe), ndjsonSink] as unknown as ComponentDefinition[];
    await runPipeline(input(3), { registry, outputDir: dir });
    expect(await lines()).toEqual(Array.from({ length: 12 }, (_, k) => k));
    expect(await checkpoints()).toEqual({ 'counter/s0': { next: 3 } });
    await runPipeline(input(6), { registry, outputDir: dir });
    expect(probe.produced).toBe(6);
    expect(await lines()).toEqual(Array.from({ length: 24 }, (_, k) => k));
    expect(await checkpoints()).toEqual({ 'counter/s0': { next: 6 } });
  });

  it('keepState false: no checkpoint, and each run rewrites the file with exactly its window', async () => {
    const registry = [counterSource(), ndjsonSink] as unknown as ComponentDefinition[];
    await runPipeline(input(6, { keepState: false }), { registry, outputDir: dir });
    await runPipeline(input(3, { keepState: false }), { registry, outputDir: dir });
    expect(await lines()).toEqual(Array.from({ length: 12 }, (_, k) => k));
    expect(await checkpoints()).toEqual({});
  });

  it('a file deleted by hand stops the next run before any request; --full-refresh writes it whole again', async () => {
    const probe: SourceProbe = { produced: 0 };
    const registry = [counterSource(probe), ndjsonSink] as unknown as ComponentDefinition[];
    await runPipeline(input(3), { registry, outputDir: dir });
    await rm(join(dir, 'exports/kline.ndjson'));
    probe.produced = 0;
    const refused = await runPipeline(input(6), { registry, outputDir: dir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StateConflictError);
    expect(refused).toMatchObject({
      message: expect.stringContaining(`say 1 stream is held up to where they stopped, but ${join(dir, 'exports/kline.ndjson')} is missing`),
      hint: `run the pipeline again with --full-refresh, which fetches the whole window again (or forget its checkpoints: "quotelake state reset export --output ${dir}")`,
    });
    expect(probe.produced).toBe(0);
    expect(await checkpoints()).toEqual({ 'counter/s0': { next: 3 } });
    await runPipeline(input(6), { registry, outputDir: dir, fullRefresh: true });
    expect(await lines()).toEqual(Array.from({ length: 24 }, (_, k) => k));
  });

  it('a run that got no rows still creates the file (empty), so its checkpoints never stand without it', async () => {
    // A window with nothing in it (a weekend of a stock): batches that move the checkpoint and carry no row.
    const quiet = { ...counterSource(), type: 'quiet', create: () => ({
      async *read() {
        yield { stream: 'quiet/s0', seq: 0, records: [], checkpoint: { stream: 'quiet/s0', position: { next: 1 } } };
      },
    }) };
    const registry = [quiet, ndjsonSink] as unknown as ComponentDefinition[];
    const pipeline = { ...input(1), source: { type: 'quiet', batches: 1, rowsPerBatch: 1 } };
    const first = await runPipeline(pipeline, { registry, outputDir: dir });
    expect(first.manifest.filesCommitted).toEqual([{ path: 'exports/kline.ndjson', rows: 0, bytes: 0 }]);
    expect(await readFile(join(dir, 'exports/kline.ndjson'), 'utf8')).toBe('');
    expect(await checkpoints()).toEqual({ 'quiet/s0': { next: 1 } });
    // The next run resumes: the file is there, nothing is refused.
    expect((await runPipeline(pipeline, { registry, outputDir: dir })).status).toBe('succeeded');
  });
});
