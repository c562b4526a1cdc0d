/** `quotelake repair`: loaded only when the command runs. The lake does the work (repair-lake.ts); this wires it and says what to run next. */
import { createMaintenanceId } from '../../runtime/run-id.js';
import type { RunContext } from '../../core/component.js';
import { packageVersion } from '../../lake/package-version.js';
import { partitionKeys } from '../../lake/partition-path.js';
import { repairLake, type TableRepair } from '../../lake/repair-lake.js';
import { repairLayout, type LayoutRepair } from '../../runtime/repair-layout.js';
import { formatPendingCommit, repairPendingCommits, type PendingCommitRepair } from './repair-pending-commits.js';
import { stateLocationFor } from '../../runtime/state-location.js';
import { commandClock } from '../clock-option.js';
import { commandLogger } from '../command-logger.js';
import { EXIT_OK } from '../exit-codes.js';
import type { LogArgs } from '../shared-options.js';
import { shellWord } from '../../core/shell-word.js';
import { terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { checkOutputRoom, checkLocalOutput, onLakeOutput } from '../lake-location.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';

export interface RepairArgs extends LogArgs {
  output: string;
  's3-endpoint'?: string | undefined;
  dataset?: string | undefined;
  'state-dir'?: string | undefined;
  'dry-run': boolean;
  yes: boolean;
  clock?: string | undefined;
  color?: boolean | undefined;
  json: boolean;
}

/** The checkpoint streams whose rows a dropped file held: what `state reset --stream` takes. */
export function streamsOf(r: TableRepair): string[] {
  const out = new Set<string>();
  for (const f of r.dropped) {
    if (r.dataset === 'kline') {
      const interval = partitionKeys(f.key).interval;
      for (const code of f.series) out.add(`kline/${code}/${interval ?? '*'}`);
    } else if (r.dataset === 'halt') {
      for (const exchange of f.series) out.add(`halt/${exchange}`);
    }
  }
  return [...out].sort();
}

/**
 * The `state reset` that fetches a repair's series again, to paste as it is; undefined when none can
 * be. It names `output` as given to repair, and resets those streams in every pipeline whose
 * checkpoints under it hold them (a pipeline that never wrote them is left as it is).
 */
export function resetCommand(r: TableRepair, output: string, s3Endpoint?: string): string | undefined {
  const streams = streamsOf(r);
  // The endpoint repair was given, if any: without it the pasted command would look elsewhere.
  const endpoint = s3Endpoint === undefined ? '' : ` --s3-endpoint ${shellWord(s3Endpoint)}`;
  return streams.length === 0 ? undefined : `quotelake state reset --output ${shellWord(output)}${endpoint} ${streams.map((s) => `--stream ${shellWord(s)}`).join(' ')} --yes`;
}

/** What a run of the reset streams fetches again: a backfill walks back to its since, no further. */
const COMES_BACK = {
  kline:
    "(forex, metals and crypto come back whole as far back as each pipeline's since reaches: a span such as 7d counts back from the run, " +
    'so give --since an ISO date before the dropped rows if it does not; a stock or index only as far as its newest 500 bars reach)',
  halt: '(the service gives the last year of halts: older announcements do not come back)',
} as const;

export function formatRepair(r: TableRepair, dryRun: boolean, output: string, s3Endpoint?: string): string {
  const table = `${r.dataset}.${r.format}${r.delta ? ' (Delta)' : ''}`;
  const n = r.logMismatches.length;
  const mismatches = n === 0 ? [] : r.logLost ? [
    `${table}: its _delta_log/ holds no version (deleted, or lost with a disk), so Delta readers no longer open it and runs refuse to write it; a new log ${dryRun ? 'would be' : 'was'} written naming the manifest's ${n} live file${n === 1 ? '' : 's'}:`,
    ...r.logMismatches.map((f) => `  ${f.key}: ${f.problem}`),
    '  the new log starts at version 0: the old versions (time travel), file statistics and series watermarks (txn) are not in it; restore the old log from a backup instead if one has it',
  ] : [
    `${table}: the Delta log and the manifest disagree on ${n} file${n === 1 ? '' : 's'} (a commit stranded half-way); the log ${dryRun ? 'would be' : 'was'} made to agree with the manifest:`,
    ...r.logMismatches.map((f) => `  ${f.key}: ${f.problem}`),
    "  rows only the log had were never committed for quotelake: the pipeline's next run fetches them",
  ];
  if (r.dropped.length === 0) return [`${table}: all ${r.files} live file${r.files === 1 ? '' : 's'} read`, ...mismatches].join('\n') + '\n';
  const lines = [...mismatches, `${table}: ${r.dropped.length} of ${r.files} live files cannot be read; ${dryRun ? 'would drop' : 'dropped'}:`];
  for (const f of r.dropped) lines.push(`  ${f.key}: ${f.problem}; ${f.rows} rows of ${f.series.join(', ') || 'no series'}`);
  const reset = resetCommand(r, output, s3Endpoint);
  if (reset !== undefined) {
    lines.push(
      `  to fetch their rows again: ${reset} ` +
        '(every pipeline holding them; add --state-dir if its runs keep their state elsewhere), then run the pipelines ' +
        COMES_BACK[r.dataset === 'halt' ? 'halt' : 'kline'],
    );
  } else {
    lines.push('  snapshots of order books and trades cannot be fetched again for past instants: their rows are gone');
  }
  return `${lines.join('\n')}\n`;
}

export function formatLayoutRepair(r: LayoutRepair): string {
  const verb = r.written ? 'written again' : 'would be written again';
  const id =
    r.lakeId === null
      ? 'without a lake id (no checkpoint names one: the next run draws it)'
      : `with lake id ${r.lakeId}, as the checkpoints of ${r.pipelines.join(', ')} name it (they resume where they were)`;
  return `layout: ${r.problem}; ${verb} ${id}\n`;
}

export async function repairAction(args: RepairArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({ color: args.color }, env);
  const dryRun = args['dry-run'];
  if (!dryRun && !args.yes) {
    throw new UsageError('repair drops the files it cannot read from the lake, and their rows with them', 'add --dry-run to see which, then --yes to drop them');
  }
  const clock = commandClock(args.clock, env);
  const json = (datasets: readonly TableRepair[], layout: LayoutRepair | undefined, pendingCommits: readonly PendingCommitRepair[]) =>
    terminal.out(
      `${JSON.stringify(
        {
          quotelake: packageVersion(),
          command: 'repair',
          output: args.output,
          dryRun,
          layout: layout ?? null,
          pendingCommits,
          datasets: datasets.map((r) => ({ ...r, streams: streamsOf(r), reset: resetCommand(r, args.output, args['s3-endpoint']) ?? null })),
        },
        null,
        2,
      )}\n`,
    );
  refuseIdleS3Endpoint(args['s3-endpoint'], [args.output]);
  checkOutputRoom(args.output);
  await checkLocalOutput(args.output);
  const runId = createMaintenanceId('repair', new Date(clock.now()));
  const logger = commandLogger(args, env, terminal, clock, { runId, command: 'repair' });
  const ctx: RunContext = { runId, signal: new AbortController().signal, logger, events: { request() {}, rows() {} }, clock };
  // A dry run reads only; a repair commits, so it holds the output as a run does.
  const holder = dryRun ? undefined : { runId, pipeline: 'repair', now: new Date(clock.now()) };
  await onLakeOutput(args.output, env, { s3Endpoint: args['s3-endpoint'], holder }, async (storage, lease) => {
    // The layout file first: the runs read it before anything else, and a damaged one stops them all.
    const state = stateLocationFor(storage, args['state-dir']);
    const layout = await repairLayout(storage, state, { dryRun, now: new Date(clock.now()) });
    // Before the datasets are read: a killed run's decided commit is finished first (also in a
    // dataset whose first commit it was, which has no manifest for repairLake to find yet).
    const pending = await repairPendingCommits(storage, state, { dryRun, dataset: args.dataset, runId, now: new Date(clock.now()), assertHeld: () => lease?.assertHeld() });
    // Its commits check the lease between their steps, as a run's do.
    const reports = await repairLake(args.output, { ctx: lease === undefined ? ctx : { ...ctx, lease }, dataset: args.dataset, dryRun, storage });
    if (args.json) return json(reports, layout, pending);
    if (layout) terminal.out(formatLayoutRepair(layout));
    for (const p of pending) terminal.out(formatPendingCommit(p));
    if (reports.length === 0 && pending.length === 0) terminal.out(`nothing to repair: no Parquet or Arrow dataset${args.dataset ? ` ${args.dataset}` : ''} in ${args.output}\n`);
    else for (const r of reports) terminal.out(formatRepair(r, dryRun, args.output, args['s3-endpoint']));
  });
  return EXIT_OK;
}
