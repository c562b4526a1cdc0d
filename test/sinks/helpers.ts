/** Shared by the sink tests: a run context, a temp dir, DuckDB, and sample rows. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { ManualClock } from '../../src/core/clock.js';
import type { RunContext } from '../../src/core/component.js';
import type { ComponentEnv } from '../../src/core/definition.js';

export function runContext(runId = 'run-1', counts: Record<string, number> = {}): RunContext {
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  return {
    runId,
    signal: new AbortController().signal,
    logger,
    events: {
      request() {},
      rows(dataset, kind, count) {
        counts[`${dataset}:${kind}`] = (counts[`${dataset}:${kind}`] ?? 0) + count;
      },
    },
    clock: new ManualClock(Date.parse('2026-11-21T14:30:00.000Z')),
  };
}

export async function tempDir(prefix = 'ql-sink-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function sinkEnv(outputDir: string, dataset: string): ComponentEnv & { dataset: string } {
  return { outputDir, stateDir: join(outputDir, '.state'), stdout: new PassThrough(), dataset };
}

export async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create();
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(sql);
    return r.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    c.closeSync();
  }
}
