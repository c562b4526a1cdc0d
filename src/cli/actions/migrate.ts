/** `quotelake migrate`: loaded only when the command runs. */
import { describeMigration, ensureLayout, layoutState } from '../../lake/layout/index.js';
import { LAYOUT_VERSION } from '../../lake/layout-version.js';
import { packageVersion } from '../../lake/package-version.js';
import { acquireOutputLock } from '../../runtime/output-lock.js';
import { createRunId } from '../../runtime/run-id.js';
import { commandClock } from '../clock-option.js';
import { EXIT_OK } from '../exit-codes.js';
import type { ClockArgs } from '../shared-options.js';
import { createTerminal } from '../terminal.js';

export interface MigrateArgs extends ClockArgs {
  output: string;
  'dry-run': boolean;
  json: boolean;
}

export async function migrateAction(args: MigrateArgs): Promise<number> {
  const terminal = createTerminal();
  const now = new Date(commandClock(args.clock, process.env).now());
  const outputDir = args.output;
  // The same lock a run takes: nothing writes into the lake while it moves.
  const lock = args['dry-run'] ? undefined : await acquireOutputLock(outputDir, { runId: createRunId(now), pipeline: 'migrate', now });
  let report;
  let before;
  try {
    before = await layoutState(outputDir);
    report = await ensureLayout(outputDir, { now, dryRun: args['dry-run'] });
  } finally {
    await lock?.release();
  }
  const line = report ? describeMigration(report) : before.version === undefined ? `${outputDir} holds no lake yet: nothing to migrate` : `${outputDir} is already at layout ${LAYOUT_VERSION}: nothing to migrate`;
  if (args.json) {
    terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'migrate', output: outputDir, layoutBefore: before.version ?? null, layout: LAYOUT_VERSION, ...(report ? { migration: report } : {}) }, null, 2)}\n`);
  } else {
    terminal.out(`${line}\n`);
  }
  return EXIT_OK;
}
