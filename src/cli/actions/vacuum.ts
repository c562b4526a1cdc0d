/**
 * `quotelake vacuum`: loaded only when the command runs. Deletes the files of each Delta table that
 * its newest version no longer references, once older than the retention (the lake does the work:
 * vacuum-lake.ts). A retention shorter than the default would break readers of older snapshots
 * (and time travel) within it, so it needs --force, as Delta's own VACUUM asks. Then each table's
 * log loses its entries older than the log retention (delta/clean-delta-log.ts).
 */
import { createMaintenanceId } from '../../runtime/run-id.js';
import { DEFAULT_TOMBSTONE_RETENTION_MS } from '../../lake/delta/delta-checkpoint-write.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';
import { tableLogRetentions, vacuumLake, type TableVacuum } from '../../lake/vacuum-lake.js';
import { checkOutputRoom, checkLocalOutput, onLakeOutput } from '../lake-location.js';
import { commandClock } from '../clock-option.js';
import { EXIT_OK } from '../exit-codes.js';
import { exitOnInterrupt } from '../interrupts.js';
import { terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';

export interface VacuumArgs {
  output: string;
  's3-endpoint'?: string | undefined;
  dataset?: string | undefined;
  retention: string;
  /** Unset: each table's own delta.logRetentionDuration (default 720h), or none when it turns cleanup off. */
  'log-retention'?: string | undefined;
  'dry-run': boolean;
  force: boolean;
  clock?: string | undefined;
  color?: boolean | undefined;
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `168h`, `7d`, `30m`, `0h`: a whole number and a unit. */
export function parseRetention(text: string, flag = '--retention'): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag} ${JSON.stringify(text)} is not a duration`, 'give a whole number and a unit: 168h, 7d, 30m');
  return Number(m[1]) * UNITS[m[2]!]!;
}

export function formatVacuum(r: TableVacuum, dryRun: boolean): string {
  if (r.skipped !== undefined) return `${r.dataset}: skipped: ${r.skipped}\n`;
  const verb = dryRun ? 'would delete' : 'deleted';
  const lines = r.deleted.map((key) => `${verb} ${key}\n`);
  lines.push(
    `${r.dataset}: Delta version ${r.version}: ${verb} ${r.deleted.length} unreferenced file${r.deleted.length === 1 ? '' : 's'}` +
      `${r.kept.length > 0 ? `; kept ${r.kept.length} younger than the retention` : ''}\n`,
  );
  if (r.logKept !== undefined) lines.push(`${r.dataset}: Delta log: kept whole (${r.logKept})\n`);
  if (r.log !== undefined && r.log.deleted.length > 0) {
    lines.push(
      `${r.dataset}: Delta log: ${verb} ${r.log.deleted.length} entr${r.log.deleted.length === 1 ? 'y' : 'ies'} older than the log retention ` +
        `(versions before ${r.log.historyFrom} ${dryRun ? 'would no longer be' : 'are no longer'} readable)\n`,
    );
  }
  return lines.join('');
}

/** A duration in whole hours when it is one (`720h`), else in ms. */
const hours = (ms: number): string => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms}ms`);

/**
 * The log retention a table takes by its own rule (delta.logRetentionDuration, else 720h) shorter
 * than --retention would leave versions whose files vacuum keeps with no log to read them by.
 */
async function refuseShorterTableLog(storage: LakeStorage, retentionMs: number, args: VacuumArgs): Promise<void> {
  const shorter = (await tableLogRetentions(storage, args.dataset)).filter((t) => t.retentionMs < retentionMs);
  if (shorter.length === 0) return;
  const which = shorter.map((t) => `${t.dataset}, ${hours(t.retentionMs)}`).join('; ');
  throw new UsageError(
    `the log retention of ${which} (its delta.logRetentionDuration, else Delta's 30 days), is shorter than --retention ${args.retention}: versions whose files are still kept could no longer be read`,
    `give --log-retention ${args.retention} or more, or set the table's delta.logRetentionDuration to it, or add --force`,
  );
}

/** A vacuum is safe to cut anywhere: it deletes only files no log references, one at a time. */
export const VACUUM_CUT_NOTICE = (sig: NodeJS.Signals) =>
  `quotelake: ${sig}: vacuum stopped; every file it deleted was unreferenced and the tables are whole: run it again to delete the rest`;

export async function vacuumAction(args: VacuumArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({ color: args.color }, env);
  const retentionMs = parseRetention(args.retention);
  if (retentionMs < DEFAULT_TOMBSTONE_RETENTION_MS && !args.force) {
    throw new UsageError(
      `--retention ${args.retention} is shorter than the default 168h: a reader of an older snapshot (or a time-travel query) within it would find files gone`,
      'keep --retention at 168h or more, or add --force when no reader needs older snapshots',
    );
  }
  const given = args['log-retention'];
  const logRetentionMs = given === undefined ? ('table' as const) : parseRetention(given, '--log-retention');
  if (logRetentionMs !== 'table' && logRetentionMs < retentionMs && !args.force) {
    throw new UsageError(
      `--log-retention ${given} is shorter than --retention ${args.retention}: versions whose files are still kept could no longer be read`,
      'keep --log-retention at --retention or more (default 720h), or add --force',
    );
  }
  const clock = commandClock(args.clock, env);
  refuseIdleS3Endpoint(args['s3-endpoint'], [args.output]);
  checkOutputRoom(args.output);
  await checkLocalOutput(args.output);
  const now = clock.now();
  const dryRun = args['dry-run'];
  const runId = createMaintenanceId('vacuum', new Date(now));
  // A dry run reads only; a vacuum must not race a run that is committing files not yet logged.
  const holder = dryRun ? undefined : { runId, pipeline: 'vacuum', now: new Date(now) };
  await onLakeOutput(args.output, env, { s3Endpoint: args['s3-endpoint'], holder }, async (storage, lease) => {
    const interrupts = exitOnInterrupt((line) => terminal.err(line), VACUUM_CUT_NOTICE);
    try {
      // Without --log-retention each table's own rule cleans the log: refused as a given one is.
      if (logRetentionMs === 'table' && !args.force) await refuseShorterTableLog(storage, retentionMs, args);
      const results = await vacuumLake(storage, { retentionMs, logRetentionMs, now, dryRun, dataset: args.dataset, ...(lease ? { guard: () => lease.assertHeld() } : {}) });
      if (results.length === 0) terminal.out(`nothing to vacuum: no Delta table${args.dataset ? ` ${args.dataset}` : ''} in ${args.output}\n`);
      for (const r of results) terminal.out(formatVacuum(r, dryRun));
    } finally {
      interrupts.dispose();
    }
  });
  return EXIT_OK;
}
