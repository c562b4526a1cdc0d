/**
 * A pipeline file planned and then run, in-process, as the `plan` and `run` commands do (their
 * report and their --json summary), on one frozen clock: the built-in emulator and the client wait
 * on it, so a plan's rate limits cost no real time and both see the same instant.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { PoolToken } from '../../../src/api/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import { loadJob } from '../../../src/cli/pipeline-job.js';
import { planJob, type PlanReport } from '../../../src/cli/plan-report.js';
import { runJob } from '../../../src/cli/run-job.js';
import type { RunSummary } from '../../../src/cli/run-summary.js';
import type { RunArgs } from '../../../src/cli/run-settings.js';
import { chooseTarget, connect } from '../../../src/cli/service-target.js';
import { createTerminal } from '../../../src/cli/terminal.js';

export interface PlanAndRun {
  readonly plan: PlanReport;
  readonly run: RunSummary;
}

/** A pipeline file of `lines` in a fresh folder, and an output folder beside it. */
export function pipelineFile(lines: readonly string[]): { file: string; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ql-plan-run-'));
  const file = join(dir, 'p.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, output: join(dir, 'out') };
}

export async function planAndRun(file: string, args: RunArgs, at: string, pool?: readonly PoolToken[]): Promise<PlanAndRun> {
  const clock = new ManualClock(at);
  const job = await loadJob(file, args, {});
  const plan = await planJob(job, clock, { pool });
  const connection = await connect(chooseTarget(job.resolved, job.plans, pool), { clock, announce: () => undefined });
  const terminal = createTerminal({ stdout: new PassThrough(), stderr: new PassThrough(), env: {} });
  try {
    const run = await runJob(job, { terminal, connection, signal: new AbortController().signal, progress: 'off', logLevel: 'error', clock });
    return { plan, run };
  } finally {
    await connection.close();
  }
}

/** The partition folders of a run's files, as the plan names them (relative to the dataset). */
export function runPartitions(run: RunSummary, dataset: string): string[] {
  const folders = run.files.paths.filter((p) => p.startsWith(`${dataset}/`)).map((p) => p.slice(dataset.length + 1, p.lastIndexOf('/')));
  return [...new Set(folders)].sort();
}
