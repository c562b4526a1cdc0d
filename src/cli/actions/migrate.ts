/** `quotelake migrate`: loaded only when the command runs. */
import { describeMigration, ensureLayout, layoutState } from '../../lake/layout/index.js';
import { LAYOUT_VERSION } from '../../lake/layout-version.js';
import { packageVersion } from '../../lake/package-version.js';
import { acquireCommandLock, checkLocalOutput, checkOutputRoom } from '../lake-location.js';
import { createRunId } from '../../runtime/run-id.js';
import { commandClock } from '../clock-option.js';
import { commandLogger } from '../command-logger.js';
import { EXIT_OK } from '../exit-codes.js';
import { exitOnInterrupt } from '../interrupts.js';
import { SIGNAL_NOTICE } from '../json-notices.js';
import type { ClockArgs, LogArgs } from '../shared-options.js';
import { terminalFor } from '../terminal.js';
import { isS3Url } from '../../core/s3-url.js';
import { UsageError } from '../usage-error.js';

export interface MigrateArgs extends ClockArgs, LogArgs {
  output: string;
  'dry-run': boolean;
  json: boolean;
  color?: boolean | undefined;
}

/** A migration is safe to cut anywhere: the next migrate, or run, finishes it. */
export const MIGRATE_CUT_NOTICE = (sig: NodeJS.Signals) =>
  `quotelake: ${sig}: migration stopped; run "quotelake migrate" (or any run) on this output again: an interrupted migration resumes where it stopped`;

export async function migrateAction(args: MigrateArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({ color: args.color }, env);
  const clock = commandClock(args.clock, env);
  const now = new Date(clock.now());
  const outputDir = args.output;
  // Layout 1 was written to folders only (quotelake 0.1.0 had no S3 output): never a folder named "s3:".
  if (isS3Url(outputDir)) throw new UsageError(`${outputDir}: a lake on object storage was never in layout 1, so there is nothing to migrate`, 'migrate takes an output folder written by quotelake 0.1.0');
  const runId = createRunId(now);
  const logger = commandLogger(args, env, terminal, clock, { runId, command: 'migrate' });
  checkOutputRoom(outputDir);
  await checkLocalOutput(outputDir);
  // The same lock a run takes: nothing writes into the lake while it moves.
  const lock = args['dry-run'] ? undefined : await acquireCommandLock(outputDir, { runId, pipeline: 'migrate', now }, env);
  const interrupts = exitOnInterrupt((line) => terminal.notice(line, SIGNAL_NOTICE), MIGRATE_CUT_NOTICE);
  let report;
  let before;
  try {
    before = await layoutState(outputDir);
    report = await ensureLayout(outputDir, { now, dryRun: args['dry-run'] });
    // What a run logs as a warning (nobody asked for it there) is this command's work: info.
    if (report && !report.dryRun) logger.info(describeMigration(report), { event: 'recovery', action: 'layout-migrated', output: outputDir, from: report.from, to: report.to, files: report.filesRewritten, kept: report.filesKept, resumed: report.resumed });
  } finally {
    interrupts.dispose();
    await lock?.release();
  }
  const line = report
    ? describeMigration(report)
    : before.version === undefined
      ? `${outputDir} holds no lake yet: nothing to migrate`
      : `${outputDir} is already at layout ${LAYOUT_VERSION}: nothing to migrate`;
  if (args.json) {
    terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'migrate', output: outputDir, layoutBefore: before.version ?? null, layout: LAYOUT_VERSION, ...(report ? { migration: report } : {}) }, null, 2)}\n`);
  } else {
    terminal.out(`${line}\n`);
  }
  return EXIT_OK;
}
