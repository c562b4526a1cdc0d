/**
 * The lake and the state a command works on, from `--output` (a folder, or `s3://bucket/prefix`)
 * and `--state-dir`, following I5: a local output keeps its state in `<output>/.state`, an S3 output
 * in the lake under `_quotelake/state/` (so any host resumes it), `--state-dir` wins for both.
 *
 * The daily-quota files (src/api/quota-store.ts: per token, per machine, with a lock file) always
 * stay on a local folder: `--state-dir`, `<output>/.state` for a local output, and for an S3 output
 * the XDG state folder (`$XDG_STATE_HOME/quotelake`, else `~/.local/state/quotelake`).
 *
 * The S3 client (credentials and region from the AWS chain, `--s3-endpoint` or AWS_ENDPOINT_URL)
 * is made here and destroyed by `close()` when the command ends.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { enclosingLake } from '../lake/layout/index.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { localStorage } from '../lake/storage/local-storage.js';
import { isS3Url } from '../core/s3-url.js';
export { enclosingLake };
import { checkMaintainedLayout } from './maintained-layout.js';
import { checkLocalPathRoom } from '../lake/local-path-room.js';
import { openOutput } from './output-storage.js';
import { UsageError } from './usage-error.js';
import { acquireRunLock, type RunLock } from '../runtime/run-lock.js';
import { remoteOutputPlacement } from '../runtime/state-dir-placement.js';
import { lakeArgs } from '../core/lake-args.js';
import { stateLocationFor, type StateLocation } from '../runtime/state-location.js';

export interface CommandLake {
  readonly storage: LakeStorage;
  /** True for an object store (the lease, state in the lake). */
  readonly remote: boolean;
  close(): void;
}

export const isS3Output = isS3Url;

export async function commandLake(output: string, env: NodeJS.ProcessEnv, options: { s3Endpoint?: string | undefined } = {}): Promise<CommandLake> {
  const opened = await openOutput(output, options.s3Endpoint, env);
  if (opened.storage === undefined) return { storage: localStorage(output), remote: false, close: () => undefined };
  return { storage: opened.storage, remote: true, close: () => opened.close() };
}

/**
 * The local output folder a maintenance command (compact, vacuum, repair, migrate) works on must be
 * there: one that is not is a typo or a lake not yet written, refused as `inspect` refuses it
 * (exit 2), so a cron line with a mistyped path fails instead of doing nothing every night. Nothing
 * is made (the lock would make the folder). A file there is refused too, and so is a folder inside a
 * lake (a dataset's: it held no dataset, so the command did nothing with exit 0). A lake on S3 is not
 * checked here: its prefix exists once anything is written (onLakeOutput refuses one holding
 * nothing, checkRemoteOutput).
 */
export async function checkLocalOutput(output: string): Promise<void> {
  if (isS3Output(output)) return;
  const st = await stat(output).catch(() => undefined);
  // A file is no lake, dry run or not (a dry run would otherwise call it one with no dataset, exit 0).
  if (st !== undefined && !st.isDirectory()) throw new UsageError(`--output ${output} is a file, not an output folder`, 'give the output folder of a run (default output)');
  if (st === undefined) throw new UsageError(`--output ${output} does not exist (no run has written there)`, 'give the output folder of a run (default output)');
  // A dataset's folder (`--output lake/kline`, as Delta tools take a table's path) read as an empty lake: exit 0, nothing done, every night.
  const lakeAbove = await enclosingLake(output);
  if (lakeAbove !== undefined) throw new UsageError(`--output ${output} is a folder inside the lake ${lakeAbove}, not an output folder`, `give the lake's folder: --output ${lakeAbove}`);
}


/**
 * An s3:// output holding nothing is a missing output (often a mistyped prefix): an object store has
 * no empty folders. Refused as a missing folder is (exit 2), by `inspect` and the maintenance
 * commands, before anything is written there (a lease would make the prefix exist).
 */
export async function checkRemoteOutput(output: string, storage: LakeStorage): Promise<void> {
  if ((await storage.list('', { limit: 1 })).length > 0) {
    // A dataset's prefix (`s3://bucket/lake/kline`, as Delta tools take a table's path) read as an empty lake: exit 0, nothing done, every night.
    const above = await remoteOutputPlacement(storage);
    if (above !== undefined) throw new UsageError(`${output} is inside the lake ${above.root}, in ${above.where}, not a lake's prefix`, `give the lake's prefix: ${lakeArgs(above.root, storage.endpoint)}`);
    return;
  }
  throw new UsageError(`${output} holds nothing (no run has written there)`, 'check the bucket and prefix of the s3:// URL (and --s3-endpoint): give the --output of a run');
}

/**
 * A command that writes into a local output (compact, vacuum, repair, migrate, state reset) refuses
 * one too deep for the lake's own files, as a run does (lake/local-path-room.ts), and so a local
 * state folder too deep for a pipeline's files: before it reads or makes anything there, dry run or
 * not, so that a dry run does not promise what the command would refuse.
 */
export function checkOutputRoom(output: string, state?: { readonly dir: string; readonly pipeline: string }): void {
  checkLocalPathRoom({ output: isS3Output(output) ? undefined : output, state });
}

/** Where a command reads and writes checkpoints and run manifests (see the file's comment). */
export function commandState(lake: CommandLake, stateDir: string | undefined): StateLocation {
  return stateLocationFor(lake.storage, stateDir);
}

/** The XDG state folder of quotelake on this machine. */
export function xdgStateDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME?.trim();
  return join(base !== undefined && base !== '' && base.startsWith('/') ? base : join(env.HOME?.trim() || homedir(), '.local', 'state'), 'quotelake');
}

/** The local folder holding `quota/` for this output: never a lake on S3 (see the file's comment). */
export function quotaStateDir(output: string, stateDir: string | undefined, env: NodeJS.ProcessEnv): string {
  if (stateDir !== undefined && !isS3Output(stateDir)) return stateDir;
  return isS3Output(output) ? xdgStateDir(env) : `${output.replace(/\/+$/, '')}/.state`;
}

/** Runs `act` on the state of an output; the lake's S3 client (if any) is destroyed afterwards. */
export async function withCommandState<T>(
  output: string,
  stateDir: string | undefined,
  env: NodeJS.ProcessEnv,
  act: (state: StateLocation, lake: CommandLake) => Promise<T>,
  options: { s3Endpoint?: string | undefined } = {},
): Promise<T> {
  const lake = await commandLake(output, env, options);
  try {
    return await act(commandState(lake, stateDir), lake);
  } finally {
    lake.close();
  }
}

/**
 * A whole-lake command (compact, vacuum, repair) on its output: the lake opened (a folder, or an
 * s3:// lake through its storage), held as a run holds it (the pid lock of a folder, the lease of a
 * lake on S3) while `act` works, unless no `holder` is given (a dry run reads only), then let go
 * of and its S3 client destroyed. A lake of another layout than the one they work on is refused
 * first (maintained-layout.ts).
 */
export async function onLakeOutput<T>(
  output: string,
  env: NodeJS.ProcessEnv,
  options: { s3Endpoint?: string | undefined; holder?: { runId: string; pipeline: string; now: Date } | undefined },
  act: (storage: LakeStorage, lease: RunLock | undefined) => Promise<T>,
): Promise<T> {
  const lake = await commandLake(output, env, { s3Endpoint: options.s3Endpoint });
  try {
    // Before the lock: a lake these commands cannot work on is left exactly as it is.
    if (lake.remote) await checkRemoteOutput(output, lake.storage);
    await checkMaintainedLayout(output, lake.storage);
    const lock = options.holder === undefined ? undefined : await acquireRunLock(lake.remote ? lake.storage : output, options.holder);
    try {
      return await act(lake.storage, lock);
    } finally {
      await lock?.release();
    }
  } finally {
    lake.close();
  }
}

/**
 * The lock a writing command (compact, migrate) holds on its output: the pid lock of a folder, the
 * lease of a lake on S3 (acquireRunLock). Its release also destroys the lake's S3 client.
 */
export async function acquireCommandLock(
  output: string,
  owner: { runId: string; pipeline: string; now: Date },
  env: NodeJS.ProcessEnv,
  options: { s3Endpoint?: string | undefined } = {},
): Promise<RunLock> {
  const lake = await commandLake(output, env, { s3Endpoint: options.s3Endpoint });
  try {
    // The lease counts real time, not the command's `--clock`: other processes compare it with theirs.
    const lock = await acquireRunLock(lake.remote ? lake.storage : output, owner);
    return {
      ...lock,
      async release() {
        try {
          await lock.release();
        } finally {
          lake.close();
        }
      },
    };
  } catch (error) {
    lake.close();
    throw error;
  }
}

/**
 * For a command that only reads an output's state (`state`, `quota`): a local `--output` that is a
 * file is a mistake, named at once (exit 2), never read as "nothing here"; undefined for a folder,
 * an S3 lake or an absent path (then `absent` is true: say so rather than "no run yet").
 */
export async function checkStateOutput(output: string): Promise<{ absent: boolean }> {
  if (isS3Output(output)) return { absent: false };
  const st = await stat(output).catch(() => undefined);
  if (st !== undefined && !st.isDirectory()) {
    throw new UsageError(`--output ${output} is a file, not an output folder`, 'give the output folder of a run (default output)');
  }
  return { absent: st === undefined };
}

/**
 * `state show|reset --state-dir`: a file there is refused like an `--output` file, and a folder that
 * is not there is reported by the caller as such (a mistyped path), not as "no run has committed".
 */
export async function checkStateDirFlag(stateDir: string | undefined): Promise<{ absent: boolean }> {
  if (stateDir === undefined || isS3Output(stateDir)) return { absent: false };
  const st = await stat(stateDir).catch(() => undefined);
  if (st !== undefined && !st.isDirectory()) {
    throw new UsageError(`--state-dir ${stateDir} is a file, not a state folder`, 'give the --state-dir of the runs (default <output>/.state)');
  }
  return { absent: st === undefined };
}
