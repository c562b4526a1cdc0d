/** `quotelake compact`: loaded only when the command runs. The lake does the work; this wires it. */
import { createMaintenanceId } from '../../runtime/run-id.js';
import type { RunContext } from '../../core/component.js';
import { compactLake } from '../../lake/compact-lake.js';
import type { CompactionReport } from '../../lake/commit/partitioned-sink.js';
import { commandClock } from '../clock-option.js';
import { commandLogger } from '../command-logger.js';
import { EXIT_INTERRUPTED, EXIT_OK } from '../exit-codes.js';
import { handleInterrupts, stopGraceMs, type StopWords } from '../interrupts.js';
import { SIGNAL_NOTICE } from '../json-notices.js';
import { byteSize, counted, n } from '../progress/progress-figures.js';
import type { LogArgs, StopArgs } from '../shared-options.js';
import { terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { checkOutputRoom, checkLocalOutput, onLakeOutput } from '../lake-location.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';

export interface CompactArgs extends LogArgs, StopArgs {
  output: string;
  's3-endpoint'?: string | undefined;
  dataset?: string | undefined;
  'dry-run': boolean;
  grace: number;
  'max-rows-per-file': number;
  'max-buffered-rows': number;
  clock?: string | undefined;
  color?: boolean | undefined;
}

/** A compaction stops between partitions: each dataset's finished partitions are committed as one. */
export const COMPACT_STOP_WORDS: StopWords = {
  stopping: (sig) => `quotelake: ${sig}: stopping after the current partition and committing what is compacted (send it again to quit at once)`,
  hung: (sig, s) => `quotelake: ${sig}: compact did not stop within ${s} s; exiting now (the lake stays consistent: the next compact or run finishes or undoes the interrupted commit)`,
  again: (sig) => `quotelake: ${sig} again: exiting now (the lake stays consistent: the next compact or run finishes or undoes an interrupted commit)`,
};

export function formatCompaction(r: CompactionReport, dryRun: boolean): string {
  const verb = dryRun ? 'would compact' : 'compacted';
  const purge = dryRun ? 'would delete' : 'deleted';
  // Counts grouped by thousands (12,703 rows) and sizes in the run summary's units (KiB, MiB), so
  // the two read alike.
  return (
    `${r.dataset}.${r.format}: ${n(r.filesBefore)} → ${counted(r.filesAfter, 'file')}, ${counted(r.rows, 'row')} in ${counted(r.partitions, 'partition')} ` +
    `(${verb} ${n(r.compactedPartitions)}); ${byteSize(r.bytesBefore)} → ${dryRun ? '~' : ''}${byteSize(r.bytesAfter)}; ` +
    `${purge} ${counted(r.purged, 'retired file')} past the grace` +
    (r.stopped ? '; stopped by a signal: the other partitions are left as they were' : '')
  );
}

/** A row count option's value: a whole number of rows, at least one, as the sinks' config requires. */
function rowCount(flag: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`--${flag} must be a whole number of rows, 1 or more, got ${String(value)}`);
  return value;
}

export async function compactAction(args: CompactArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({ color: args.color }, env);
  if (!Number.isInteger(args.grace) || args.grace < 0) throw new UsageError(`--grace must be a whole number of milliseconds, got ${String(args.grace)}`);
  const maxRowsPerFile = rowCount('max-rows-per-file', args['max-rows-per-file']);
  const maxBufferedRows = rowCount('max-buffered-rows', args['max-buffered-rows']);
  const clock = commandClock(args.clock, env);
  refuseIdleS3Endpoint(args['s3-endpoint'], [args.output]);
  checkOutputRoom(args.output);
  await checkLocalOutput(args.output);
  const graceMs = stopGraceMs(args['stop-timeout'], env);
  const runId = createMaintenanceId('compact', new Date(clock.now()));
  const logger = commandLogger(args, env, terminal, clock, { runId, command: 'compact' });
  const dryRun = args['dry-run'];
  const interrupts = handleInterrupts((line) => terminal.notice(line, SIGNAL_NOTICE), { graceMs, words: COMPACT_STOP_WORDS });
  try {
    const ctx: RunContext = { runId, signal: interrupts.signal, logger, events: { request() {}, rows() {} }, clock };
    // A dry run reads only (manifests are replaced atomically), so it needs no lock.
    const holder = dryRun ? undefined : { runId, pipeline: 'compact', now: new Date(clock.now()) };
    await onLakeOutput(args.output, env, { s3Endpoint: args['s3-endpoint'], holder }, async (storage, lease) => {
      // Its commits check the lease between their steps, as a run's do.
      const reports = await compactLake(args.output, { ctx: lease === undefined ? ctx : { ...ctx, lease }, dataset: args.dataset, dryRun, retiredGraceMs: args.grace, maxRowsPerFile, maxBufferedRows, storage });
      if (reports.length === 0 && !interrupts.signal.aborted) terminal.out(`nothing to compact: no Parquet or Arrow dataset${args.dataset ? ` ${args.dataset}` : ''} in ${args.output}\n`);
      for (const r of reports) terminal.out(`${formatCompaction(r, dryRun)}\n`);
    });
  } finally {
    interrupts.dispose();
  }
  const sig = interrupts.received();
  if (sig === undefined) return EXIT_OK;
  terminal.notice(`quotelake: ${sig}: compact stopped; the partitions it finished are committed; run it again for the rest`, SIGNAL_NOTICE);
  return EXIT_INTERRUPTED;
}
