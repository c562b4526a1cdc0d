/** What a run keeps when its sink is a stream (NDJSON on stdout): nothing unless asked, then only what the reader took. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ComponentDefinition } from '../../src/core/definition.js';
import { OutputClosedError } from '../../src/core/errors.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { ndjsonSink } from '../../src/sinks/ndjson/index.js';
import { counterSource } from '../helpers/test-components.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ql-stream-state-'));
});

const registry = [counterSource(), ndjsonSink] as unknown as ComponentDefinition[];

/** A reader that takes `accept` writes, then goes away (EPIPE), like `| head`. */
function reader(accept: number): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  let n = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (n++ >= accept) return cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      lines.push(...chunk.toString().trimEnd().split('\n'));
      cb();
    },
  });
  return { stream, lines };
}

const input = (sink: Record<string, unknown>) => ({
  name: 'look',
  source: { type: 'counter', batches: 6, rowsPerBatch: 4 },
  sink: { type: 'ndjson', ...sink },
  options: { onReject: 'drop' as const },
});

async function checkpoints(): Promise<Record<string, unknown>> {
  const cps = await new CheckpointStore(join(dir, '.state'), 'look').load();
  return Object.fromEntries([...cps].map(([k, v]) => [k, v.position]));
}

describe('a stream sink and the run state', () => {
  it('without keepState: no checkpoint is read or saved, every run delivers everything', async () => {
    for (let run = 0; run < 2; run++) {
      const out = reader(Infinity);
      await runPipeline(input({}), { registry, outputDir: dir, stdout: out.stream });
      expect(out.lines).toHaveLength(24);
    }
    expect(await checkpoints()).toEqual({});
  });

  it('with keepState: a reader gone after 3 batches leaves the checkpoint after batch 3, and the next run starts there', async () => {
    const first = reader(3);
    const error = await runPipeline(input({ keepState: true }), { registry, outputDir: dir, stdout: first.stream }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputClosedError);
    expect((error as OutputClosedError).rowsUnwritten).toBe(4);
    expect(first.lines).toHaveLength(12);
    expect(await checkpoints()).toEqual({ 'counter/s0': { next: 3 } });

    const second = reader(Infinity);
    await runPipeline(input({ keepState: true }), { registry, outputDir: dir, stdout: second.stream });
    expect(second.lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 12 }, (_, k) => 12 + k));
    expect(await checkpoints()).toEqual({ 'counter/s0': { next: 6 } });
  });
});
