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
import { checkOutputRoom, checkLocalOutput, onLakeOutput } from '../lake-location.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';
import { compactTarget, type CompactTargetArgs } from '../compact-target.js';

export interface CompactArgs extends LogArgs, StopArgs, CompactTargetArgs {
  's3-endpoint'?: string | undefined;
  'dry-run': boolean;
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

export async function compactAction(args: CompactArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({ color: args.color }, env);
  const clock = commandClock(args.clock, env);
  const target = await compactTarget(args, env);
  const { output } = target;
  refuseIdleS3Endpoint(args['s3-endpoint'], [output]);
  checkOutputRoom(output);
  await checkLocalOutput(output);
  const graceMs = stopGraceMs(args['stop-timeout'], env);
  const runId = createMaintenanceId('compact', new Date(clock.now()));
  const logger = commandLogger(args, env, terminal, clock, { runId, command: 'compact' });
  const dryRun = args['dry-run'];
  const interrupts = handleInterrupts((line) => terminal.notice(line, SIGNAL_NOTICE), { graceMs, words: COMPACT_STOP_WORDS });
  try {
    const ctx: RunContext = { runId, signal: interrupts.signal, logger, events: { request() {}, rows() {} }, clock };
    // A dry run reads only (manifests are replaced atomically), so it needs no lock.
    const holder = dryRun ? undefined : { runId, pipeline: 'compact', now: new Date(clock.now()) };
    await onLakeOutput(output, env, { s3Endpoint: args['s3-endpoint'], holder }, async (storage, lease) => {
      // Its commits check the lease between their steps, as a run's do.
      const { dataset, format, retiredGraceMs, maxRowsPerFile, maxBufferedRows, maxBufferedBytes } = target;
      const options = { dataset, format, dryRun, retiredGraceMs, maxRowsPerFile, maxBufferedRows, maxBufferedBytes, storage };
      // The bounds taken from a pipeline are said first, so a user sees which file they came from.
      if (target.pipelineFile !== undefined) terminal.out(`${target.pipelineFile}: ${dataset ?? 'every'} ${format} dataset in ${output}, files of at most ${counted(maxRowsPerFile, 'row')}, ${n(maxBufferedRows)} held at once\n`);
      const reports = await compactLake(output, { ctx: lease === undefined ? ctx : { ...ctx, lease }, ...options });
      if (reports.length === 0 && !interrupts.signal.aborted) terminal.out(`nothing to compact: no ${format === undefined ? 'Parquet or Arrow' : format === 'parquet' ? 'Parquet' : 'Arrow'} dataset${dataset ? ` ${dataset}` : ''} in ${output}\n`);
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
