/** `quotelake state show|reset`: loaded only when the command runs. */
import { QuotelakeError } from '../../core/errors.js';
import { packageVersion } from '../../lake/package-version.js';
import { checkOutputRoom } from '../lake-location.js';
import { CheckpointStore, DamagedCheckpointError, type CheckpointFile } from '../../runtime/checkpoint-store.js';
import { acquireRunLock } from '../../runtime/run-lock.js';
import { createRunId } from '../../runtime/run-id.js';
import { commandClock } from '../clock-option.js';
import { confirm } from '../confirm.js';
import { sayNotConfirmed } from '../not-confirmed.js';
import { EXIT_OK } from '../exit-codes.js';
import type { ClockArgs, OutputArgs } from '../shared-options.js';
import { checkpointsThere } from '../state/checkpoints-there.js';
import { describeStream } from '../state/describe-stream.js';
import { readPipelineState } from '../state/read-state.js';
import { renderPipelineState } from '../state/render-state.js';
import { stateTargets, type StateTarget } from '../state/state-targets.js';
import { checkStreamGlobs, streamMatcher } from '../stream-glob.js';
import { terminalFor } from '../terminal.js';
import { shellWord } from '../../core/shell-word.js';

export interface StateArgs extends OutputArgs, ClockArgs {
  pipeline?: string[] | undefined;
  stream?: string[] | undefined;
  json: boolean;
}

export interface StateResetArgs extends StateArgs {
  yes: boolean;
}

export async function stateShowAction(args: StateArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor({}, env);
  checkStreamGlobs(args.stream);
  const { targets, outputDir, stateDir, outputAbsent, stateDirAbsent, close } = await stateTargets(args.pipeline ?? [], args, env);
  const select = streamMatcher(args.stream);
  const pipelines = [];
  try {
    for (const t of targets) pipelines.push(await readPipelineState(t, select));
  } finally {
    close();
  }
  if (args.json) {
    terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'state show', output: outputDir, stateDir, pipelines }, null, 2)}\n`);
  } else if (pipelines.length === 0) {
    terminal.out(
      outputAbsent
        ? `quotelake: no checkpoints under ${stateDir}: ${outputDir} does not exist (no run has written there; check --output)\n`
        : stateDirAbsent
          ? `quotelake: no checkpoints under ${stateDir}: that folder does not exist (no run has kept its state there; check --state-dir)\n`
          : `quotelake: no checkpoints under ${stateDir} (no pipeline has committed into ${outputDir} yet)\n`,
    );
  } else {
    terminal.out(`${pipelines.map(renderPipelineState).join('\n\n')}\n`);
  }
  return EXIT_OK;
}

interface Selection {
  readonly target: StateTarget;
  readonly streams: string[];
  /** The positions read for the listing (the reset itself reads the file again under the lock). */
  readonly positions?: CheckpointFile['streams'];
  /** The file cannot be read (DamagedCheckpointError): a reset of the whole pipeline removes it. */
  readonly damaged?: DamagedCheckpointError;
}

const storeOf = (target: StateTarget): CheckpointStore => new CheckpointStore(target.state, target.pipeline, undefined, undefined, target.resetCommand);

/**
 * The streams each target's reset forgets. `whole` (no --stream): every stream of the pipeline,
 * which for a damaged file is the file itself; with --stream a damaged file is refused, as the
 * streams it does not name could not be kept.
 */
async function select(targets: readonly StateTarget[], matches: (stream: string) => boolean, whole = false): Promise<Selection[]> {
  const out: Selection[] = [];
  for (const target of targets) {
    let file;
    try {
      file = await storeOf(target).loadFile();
    } catch (error) {
      if (whole && error instanceof DamagedCheckpointError) {
        out.push({ target, streams: [], damaged: error });
        continue;
      }
      throw error;
    }
    const streams = Object.keys(file?.streams ?? {}).filter(matches);
    if (streams.length > 0) out.push({ target, streams, ...(file ? { positions: file.streams } : {}) });
  }
  return out;
}

function commandLine(args: StateResetArgs): string {
  const parts = ['quotelake state reset', ...(args.pipeline ?? []).map(shellWord)];
  for (const s of args.stream ?? []) parts.push('--stream', shellWord(s));
  if (args.output !== undefined) parts.push('--output', shellWord(args.output));
  if (args['state-dir'] !== undefined) parts.push('--state-dir', shellWord(args['state-dir']));
  return parts.join(' ');
}

export async function stateResetAction(args: StateResetArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  checkStreamGlobs(args.stream);
  const found = await stateTargets(args.pipeline ?? [], args, env);
  try {
    return await reset(args, env, found.targets, found.stateDir, absenceOf(found));
  } finally {
    found.close();
  }
}

/** `; its checkpoints: a, b, ...` so that a mistyped --stream shows what it could have matched. */
async function streamsThere(targets: readonly StateTarget[]): Promise<string> {
  return checkpointsThere((await select(targets, () => true)).map((c) => ({ pipeline: c.target.pipeline, streams: c.streams })));
}

/**
 * Why nothing is there when the folder itself is missing, as `state show` says it: a mistyped
 * --output or --state-dir in a script would otherwise read as a state with nothing to reset.
 */
function absenceOf(found: { outputDir: string; outputAbsent: boolean; stateDirAbsent: boolean }): string {
  if (found.outputAbsent) return `: ${found.outputDir} does not exist (no run has written there; check --output)`;
  return found.stateDirAbsent ? ': that folder does not exist (no run has kept its state there; check --state-dir)' : '';
}

async function reset(args: StateResetArgs, env: NodeJS.ProcessEnv, targets: readonly StateTarget[], stateDir: string, absence = ''): Promise<number> {
  const terminal = terminalFor({}, env);
  const clock = commandClock(args.clock, env);
  const matches = streamMatcher(args.stream);
  const chosen = await select(targets, matches, !args.stream?.length);
  const count = chosen.reduce((a, c) => a + c.streams.length, 0);
  const damaged = chosen.filter((c) => c.damaged !== undefined).length;
  if (count === 0 && damaged === 0) {
    const what = args.stream?.length ? ` matching ${args.stream.join(', ')}` : '';
    if (args.json) terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'state reset', exitCode: EXIT_OK, reset: [] }, null, 2)}\n`);
    else terminal.err(`quotelake: nothing to reset: no checkpoint${what} under ${stateDir}${absence}${args.stream?.length && absence === '' ? await streamsThere(targets) : ''}`);
    return EXIT_OK;
  }
  // As a run would, before the listing and its question: a reset its state folder has no room for would fail after them.
  for (const c of chosen) {
    const state = c.target.state.dir === undefined ? undefined : { dir: c.target.state.dir, pipeline: c.target.pipeline };
    checkOutputRoom(c.target.outputDir, state);
  }
  const forgets = [...(count > 0 ? [`forgets ${count} checkpoint(s)`] : []), ...(damaged > 0 ? [`removes ${damaged} damaged checkpoint file(s) whole`] : [])];
  const listing = [`quotelake: state reset ${forgets.join(' and ')}:`];
  for (const c of chosen) {
    if (c.damaged !== undefined) {
      listing.push(`  ${c.target.pipeline} (${c.target.stateDir}): every stream; its file cannot be read, so it is removed: ${c.damaged.message}`);
      continue;
    }
    listing.push(`  ${c.target.pipeline} (${c.target.stateDir}):`);
    for (const stream of c.streams) {
      const s = describeStream({ stream, position: c.positions?.[stream] ?? {} }, c.target.outputDir);
      listing.push(`    ${stream}${s.watermark ? ` (at ${s.watermark.utc})` : ''}`);
    }
  }
  listing.push('Data files are kept: the next run fetches these streams again from since and merges the rows by key (no duplicates).');
  terminal.err(listing.join('\n'));
  if (!(await confirm('Reset these checkpoints?', { yes: args.yes, command: commandLine(args) }))) {
    return sayNotConfirmed(terminal, { command: 'state reset', undone: 'reset', json: args.json === true, nothing: { reset: [] } });
  }

  // One lock per output: a run holds it from start to end, so a running pipeline is never changed
  // under its feet. The file is read again under the lock (a run may have saved since the listing)
  // and only the streams confirmed above are removed from it.
  const now = new Date(clock.now());
  const done: { pipeline: string; stateDir: string; streams: string[]; removedFile?: string }[] = [];
  for (const outputDir of [...new Set(chosen.map((c) => c.target.outputDir))]) {
    let lock;
    try {
      // A local output's pid lock, or the lease of a lake on S3 (taken for the few requests of a reset).
      const lake = chosen.find((c) => c.target.outputDir === outputDir)!.target.lake;
      lock = await acquireRunLock(lake, { runId: createRunId(now), pipeline: 'state-reset', now });
    } catch (e) {
      if (e instanceof QuotelakeError && e.code === 'QL_OUTPUT_LOCKED') {
        throw new QuotelakeError('QL_OUTPUT_LOCKED', `state reset refused, nothing changed under ${outputDir}: ${e.message}`, {
          stage: 'plan',
          cause: e,
          hint: e.hint ?? 'another quotelake command (a run, compact, vacuum, repair or migrate: the message names it) is writing to this output; wait for it to end, then run the same state reset again',
        });
      }
      throw e;
    }
    try {
      for (const c of chosen.filter((x) => x.target.outputDir === outputDir)) {
        const store = storeOf(c.target);
        if (c.damaged !== undefined) {
          // Removed whole, damaged or not by now: every stream of the pipeline was confirmed.
          if (await store.removeFile()) done.push({ pipeline: c.target.pipeline, stateDir: c.target.stateDir, streams: [], removedFile: store.path });
          continue;
        }
        const removed = await store.remove(c.streams);
        if (removed.length > 0) done.push({ pipeline: c.target.pipeline, stateDir: c.target.stateDir, streams: removed });
      }
    } finally {
      await lock.release();
    }
  }
  if (args.json) {
    terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'state reset', exitCode: EXIT_OK, reset: done }, null, 2)}\n`);
  } else {
    for (const d of done) {
      terminal.err(
        d.removedFile !== undefined
          ? `quotelake: ${d.pipeline}: removed its damaged checkpoint file ${d.removedFile}; data files kept`
          : `quotelake: ${d.pipeline}: reset ${d.streams.length} checkpoint(s); data files kept`,
      );
    }
  }
  return EXIT_OK;
}
