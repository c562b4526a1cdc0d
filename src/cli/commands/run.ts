import type { Argv, CommandModule } from 'yargs';
import { packageVersion } from '../package-version.js';
import { createConnections } from '../connections.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_QUOTA, EXIT_USAGE, worstExitCode } from '../exit-codes.js';
import { handleInterrupts } from '../interrupts.js';
import { loadJobs } from '../pipeline-job.js';
import { planJob, renderPlan } from '../plan-report.js';
import { chooseProgressMode, DEFAULT_PROGRESS_INTERVAL_MS } from '../progress/progress.js';
import { runJob } from '../run-job.js';
import { sinkWritesStdout } from '../run-settings.js';
import { renderSummary, type RunSummary } from '../run-summary.js';
import { chooseTarget } from '../service-target.js';
import {
  dataOptions,
  outputOptions,
  PRECEDENCE_EPILOGUE,
  reportOptions,
  serviceOptions,
  type DataArgs,
  type OutputArgs,
  type ReportArgs,
  type ServiceArgs,
} from '../shared-options.js';
import { createTerminal, type Terminal } from '../terminal.js';

export interface RunCommandArgs extends ServiceArgs, OutputArgs, DataArgs, ReportArgs {
  pipeline: string[];
  'dry-run': boolean;
}

/** Secrets known before anything else happens: masked in every line printed afterwards. */
export function terminalFor(args: ServiceArgs, env: NodeJS.ProcessEnv): Terminal {
  const terminal = createTerminal();
  if (args.token) terminal.addSecret(args.token);
  if (env.QUOTELAKE_TOKEN) terminal.addSecret(env.QUOTELAKE_TOKEN.trim());
  return terminal;
}

function progressInterval(env: NodeJS.ProcessEnv): number {
  const v = Number(env.QUOTELAKE_PROGRESS_INTERVAL_MS);
  return Number.isFinite(v) && v >= 10 ? v : DEFAULT_PROGRESS_INTERVAL_MS;
}

/** The --json document: stdout, unless stdout carries NDJSON data (then stderr). */
export function emitJson(terminal: Terminal, doc: unknown, toStderr: boolean): void {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (toStderr) terminal.stderr.write(terminal.redact(text));
  else terminal.out(text);
}

export async function runHandler(args: RunCommandArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor(args, env);
  const jobs = await loadJobs(args.pipeline, args, env);
  // Usage problems (base URL without token, ...) of every pipeline before the first request.
  const targets = jobs.map((j) => chooseTarget(j.resolved));
  for (const t of targets) terminal.addSecret(t.token);
  const dataOnStdout = jobs.some((j) => sinkWritesStdout(j.pipeline));

  if (args['dry-run']) {
    const reports = [];
    for (const job of jobs) reports.push(await planJob(job));
    if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'plan', exitCode: EXIT_OK, plans: reports }, false);
    else for (const r of reports) terminal.out(`${renderPlan(r)}\n`);
    return EXIT_OK;
  }

  const interrupts = handleInterrupts((line) => terminal.err(line));
  const connections = createConnections((line) => terminal.err(line));
  const summaries: RunSummary[] = [];
  try {
    for (const [i, job] of jobs.entries()) {
      if (interrupts.signal.aborted) break;
      const connection = await connections.get(targets[i]!, job.pipeline.service?.quotaTimeZone);
      const summary = await runJob(job, {
        terminal,
        connection,
        signal: interrupts.signal,
        progress: chooseProgressMode({ quiet: args.quiet, json: args.json, isTTY: terminal.stderrIsTTY }),
        progressIntervalMs: progressInterval(env),
        logLevel: args['log-level'],
      });
      summaries.push(summary);
      if (!args.quiet && !args.json) terminal.err(renderSummary(summary));
      // A failed, interrupted or quota-stopped pipeline stops the ones after it (they share the token).
      if ([EXIT_FAILURE, EXIT_USAGE, EXIT_QUOTA, EXIT_INTERRUPTED].includes(summary.exitCode)) break;
    }
  } finally {
    interrupts.dispose();
    await connections.closeAll().catch(() => undefined);
  }
  const exitCode = worstExitCode(summaries.map((s) => s.exitCode));
  if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'run', exitCode, runs: summaries }, dataOnStdout);
  return exitCode;
}

export const runCommand: CommandModule<object, RunCommandArgs> = {
  command: 'run <pipeline...>',
  describe: 'Run pipelines: fetch, transform and commit data files (resumable)',
  builder: (y: Argv<object>) =>
    reportOptions(dataOptions(outputOptions(serviceOptions(y))))
      .positional('pipeline', { type: 'string', array: true, describe: 'Pipeline file, or the name of a shipped or ./pipelines pipeline' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Plan only: print requests, quota share and ETA, send nothing' })
      .example('$0 run demo', 'Run the shipped demo pipeline against the built-in emulator')
      .example('QUOTELAKE_BASE_URL=https://… QUOTELAKE_TOKEN=… QUOTELAKE_PLAN=basic $0 run pipelines/kline-backfill.yaml', 'Run against a real service')
      .example('$0 run kline-update --codes BTCUSDT,ETHUSDT --since 7d --format ndjson > bars.ndjson', 'Override codes and span; stream NDJSON to stdout')
      .example('$0 run snapshots --json --quiet', 'Machine-readable summary on stdout')
      .epilogue(PRECEDENCE_EPILOGUE) as unknown as Argv<RunCommandArgs>,
  handler: async (args) => {
    process.exitCode = await runHandler(args);
  },
};
