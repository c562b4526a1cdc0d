/**
 * A run's record between its commits: refreshed with what the run sent and received, so a run
 * SIGKILLed before its first commit is not recorded as 0 requests (the service charged them to
 * the daily quota). The record's timer is one the test ticks by hand.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { inspectOutput } from '../../src/cli/inspect/inspect-output.js';
import { renderInspect } from '../../src/cli/inspect/render-inspect.js';
import type { RunManifest } from '../../src/runtime/run-manifest.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { RUNNING_RECORD_EVERY_MS, type EveryTimer } from '../../src/runtime/running-record.js';
import { MemoryStore, testRegistry } from '../helpers/test-components.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/killed-between-commits.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ql-record-'));
});

function pipeline(batches: number): PipelineInput {
  return { name: 'test-run', source: { type: 'counter', batches, rowsPerBatch: 4 }, transforms: [], sink: { type: 'memory' }, options: { commitEveryBatches: 1000 } };
}

async function record(runId: string): Promise<RunManifest> {
  return JSON.parse(await readFile(join(dir, '.state', 'runs', `${runId}.json`), 'utf8')) as RunManifest;
}

/** `wait` settles once `open` is called. */
function gate() {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

describe('the run record between commits', () => {
  it('a refresh writes what the run sent and received so far; nothing when nothing moved; nothing after the final record', async () => {
    let tick: (() => Promise<void>) | undefined;
    let cancelled = 0;
    const recordTimer: EveryTimer = (ms, t) => {
      expect(ms).toBe(RUNNING_RECORD_EVERY_MS);
      tick = t;
      return () => void cancelled++;
    };
    const reached = gate();
    const resume = gate();
    const probe = {
      produced: 0,
      // Batch 3 waits: batches 0-2 are in the run, their commit a thousand batches away.
      beforeYield: async (_stream: string, index: number) => {
        if (index !== 3) return;
        reached.open();
        await resume.wait;
      },
    };
    const running = runPipeline(pipeline(5), { registry: testRegistry({ probe, store: new MemoryStore() }), outputDir: dir, clock: new ManualClock('2026-11-22T00:40:00Z'), runId: 'run-a', recordTimer });
    await reached.wait;
    // What the run's start wrote.
    expect(await record('run-a')).toMatchObject({ status: 'running', requests: {}, rows: { kline: { received: 0 } } });

    await tick!();
    const refreshed = await record('run-a');
    expect(refreshed).toMatchObject({
      status: 'running',
      requests: { '/counter': 3 },
      rows: { kline: { received: 12, written: 0, merged: 0, rejected: 0 } },
      streams: { 'counter/s0': { requests: 0, rows: 12 } },
      commits: 0,
      filesCommitted: [],
    });
    expect(refreshed.finishedAt).toBeUndefined();

    // Nothing moved since: a tick writes nothing (the file removed stays away).
    await rm(join(dir, '.state', 'runs', 'run-a.json'));
    await tick!();
    await expect(stat(join(dir, '.state', 'runs', 'run-a.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    resume.open();
    const result = await running;
    expect(result.status).toBe('succeeded');
    expect(cancelled).toBe(1);
    // A tick that comes late finds the run ended: the final record stays as written.
    const final = await readFile(join(dir, '.state', 'runs', 'run-a.json'), 'utf8');
    await tick!();
    expect(await readFile(join(dir, '.state', 'runs', 'run-a.json'), 'utf8')).toBe(final);
    expect(JSON.parse(final)).toMatchObject({ status: 'succeeded', requests: { '/counter': 5 }, rows: { kline: { received: 20, written: 20 } }, commits: 1 });
    expect((await readdir(join(dir, '.state', 'runs'))).sort()).toEqual(['run-a.json']);
  });

  it('a run that fails stops its refreshes before its failed record', async () => {
    let tick: (() => Promise<void>) | undefined;
    let cancelled = 0;
    const recordTimer: EveryTimer = (_ms, t) => ((tick = t), () => void cancelled++);
    const probe = {
      produced: 0,
      beforeYield: (_stream: string, index: number) => {
        if (index === 2) throw new Error('source broke');
      },
    };
    await expect(runPipeline(pipeline(5), { registry: testRegistry({ probe }), outputDir: dir, runId: 'run-f', recordTimer })).rejects.toThrow('source broke');
    expect(cancelled).toBe(1);
    await tick!();
    expect(await record('run-f')).toMatchObject({ status: 'failed', requests: { '/counter': 2 }, rows: { kline: { received: 8, written: 0 } }, error: { message: 'source broke' } });
  });

  it('a run SIGKILLed before its first commit: the next run marks its record interrupted with what it had sent and received', async () => {
    // A real process, its source's 7 requests and 35 rows received, its record refreshed once, then killed.
    const child = spawn(process.execPath, [FIXTURE, dir, '7', '5'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('ticked\n')) child.kill('SIGKILL');
    });
    expect(await ended, stderr).toBe('SIGKILL');

    const clock = new ManualClock('2026-11-22T01:00:00Z');
    await runPipeline(pipeline(1), { registry: testRegistry({}), outputDir: dir, clock, runId: 'run-next' });
    const names = (await readdir(join(dir, '.state', 'runs'))).filter((n) => n !== 'run-next.json');
    expect(names).toHaveLength(1);
    const killed = JSON.parse(await readFile(join(dir, '.state', 'runs', names[0]!), 'utf8')) as RunManifest;
    expect(killed).toMatchObject({
      status: 'interrupted',
      finishedAt: '2026-11-22T01:00:00.000Z',
      requests: { '/counter': 7 },
      rows: { kline: { received: 35, written: 0, merged: 0, rejected: 0 } },
      streams: { 'counter/s0': { requests: 7, rows: 35 } },
      commits: 0,
    });
    // inspect's last runs say it too: what was fetched and never committed.
    const info = await inspectOutput(dir, join(dir, '.state'));
    expect(info.runs.find((r) => r.status === 'interrupted')).toMatchObject({ requests: 7, rowsReceived: 35, rowsWritten: 0 });
    expect(renderInspect(info)).toContain('interrupted  7 requests, 0 rows, 0 files, 35 received not committed');
  }, 60_000);
});
