/** `quotelake compact`: loaded only when the command runs. The lake does the work; this wires it. */
import { randomBytes } from 'node:crypto';
import type { RunContext } from '../../core/component.js';
import { compactLake } from '../../lake/compact-lake.js';
import type { CompactionReport } from '../../lake/commit/partitioned-sink.js';
import { acquireOutputLock } from '../../runtime/output-lock.js';
import { commandClock } from '../clock-option.js';
import { EXIT_OK } from '../exit-codes.js';
import { createTerminal } from '../terminal.js';
import { UsageError } from '../usage-error.js';

export interface CompactArgs {
  output: string;
  dataset?: string | undefined;
  'dry-run': boolean;
  grace: number;
  clock?: string | undefined;
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

export function formatCompaction(r: CompactionReport, dryRun: boolean): string {
  const verb = dryRun ? 'would compact' : 'compacted';
  const purge = dryRun ? 'would delete' : 'deleted';
  return (
    `${r.dataset}.${r.format}: ${r.filesBefore} → ${r.filesAfter} files, ${r.rows} rows in ${r.partitions} partitions ` +
    `(${verb} ${r.compactedPartitions}); ${mb(r.bytesBefore)} → ${dryRun ? '~' : ''}${mb(r.bytesAfter)}; ` +
    `${purge} ${r.purged} retired file${r.purged === 1 ? '' : 's'} past the grace`
  );
}

export async function compactAction(args: CompactArgs): Promise<number> {
  const terminal = createTerminal();
  if (!Number.isInteger(args.grace) || args.grace < 0) throw new UsageError(`--grace must be a whole number of milliseconds, got ${String(args.grace)}`);
  const clock = commandClock(args.clock, process.env);
  const runId = `compact-${new Date(clock.now()).toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
  const ctx: RunContext = { runId, signal: new AbortController().signal, logger: quiet, events: { request() {}, rows() {} }, clock };
  const dryRun = args['dry-run'];
  // A dry run reads only (manifests are replaced atomically), so it needs no lock.
  const lock = dryRun ? undefined : await acquireOutputLock(args.output, { runId, pipeline: 'compact', now: new Date(clock.now()) });
  try {
    const reports = await compactLake(args.output, { ctx, dataset: args.dataset, dryRun, retiredGraceMs: args.grace });
    if (reports.length === 0) terminal.out(`nothing to compact: no Parquet or Arrow dataset${args.dataset ? ` ${args.dataset}` : ''} in ${args.output}\n`);
    for (const r of reports) terminal.out(`${formatCompaction(r, dryRun)}\n`);
  } finally {
    await lock?.release();
  }
  return EXIT_OK;
}
