/**
 * The room a local output (and a local state folder) leaves for quotelake's own files under it: a
 * path has at most PATH_MAX - 1 bytes, and an output too deep for the lake's longest file would be
 * created and probed, then fail at its first staged file, after the run's requests were spent (and
 * fail the same way every time). Refused before the run touches anything, as an s3:// prefix too
 * long for S3's keys is (core/s3-url.ts). So is a file a sink writes under the output (an NDJSON
 * file's path) too long with its temporary name.
 */
import { join, resolve } from 'node:path';
import { EnvironmentError } from '../core/errors.js';
import { checkpointStateFile, LAKE_KEY_RESERVE_BYTES, LOCAL_TEMP_BYTES, LONGEST_STATE_FILES } from '../core/lake-key-reserve.js';

/** PATH_MAX less its NUL where it is a fixed bound of the system; undefined elsewhere (no check). */
export function maxLocalPathBytes(platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform === 'linux') return 4095;
  if (platform === 'darwin') return 1023;
  return undefined;
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Bytes the files of a state folder take after it (its `/` not counted), a pipeline's checkpoint included. */
export function stateFilesReserve(pipeline: string): number {
  return Math.max(...[checkpointStateFile(pipeline), ...LONGEST_STATE_FILES].map(bytes)) + LOCAL_TEMP_BYTES;
}

/** Bytes the lake's own files take after a local output (its `/` not counted). */
export const LOCAL_LAKE_RESERVE_BYTES = LAKE_KEY_RESERVE_BYTES + LOCAL_TEMP_BYTES;

function tooDeep(folder: string, need: number, max: number, what: string, option: string): EnvironmentError | undefined {
  const absolute = resolve(folder);
  const have = bytes(absolute);
  const most = max - need - 1;
  if (have <= most) return undefined;
  return new EnvironmentError(
    'QL_OUTPUT_MISSING',
    `${what} ${folder}: its path is ${have} bytes long, and a path on this system has at most ${max} bytes (PATH_MAX ${max + 1}), which leaves ${max - have - 1} for quotelake's own files under it; they need up to ${need}`,
    absolute,
    `choose ${option} of at most ${most} bytes as an absolute path (${have - most} fewer); nothing was sent or written`,
    { stage: 'plan' },
  );
}

/** A file a sink writes under the output (its longest form) that is longer than the system's paths. */
function fileTooLong(output: string, file: string, max: number): EnvironmentError | undefined {
  const absolute = join(resolve(output), file);
  const have = bytes(absolute);
  if (have <= max) return undefined;
  return new EnvironmentError(
    'QL_OUTPUT_MISSING',
    `output ${output}: the sink writes ${file} under it, whose path is ${have} bytes long (its temporary name included), and a path on this system has at most ${max} bytes (PATH_MAX ${max + 1})`,
    absolute,
    `shorten the sink's path or the --output by ${have - max} bytes (as an absolute path); nothing was sent or written`,
    { stage: 'plan' },
  );
}

/** The local places a command writes under: each undefined where it has none (an object store's are held to S3's keys). */
export interface LocalPaths {
  /** A local output folder: the lake's own files go under it. */
  readonly output?: string | undefined;
  /** A local state folder, and the pipeline whose checkpoint it holds. */
  readonly state?: { readonly dir: string; readonly pipeline: string } | undefined;
  /** Files a sink writes under `output` besides the lake's own, relative to it, in their longest form (SinkDefinition.localFiles). */
  readonly sinkFiles?: readonly string[] | undefined;
}

/**
 * Throws when a local output or state folder is too deep for the files quotelake writes under it,
 * or a sink's own file under the output is too long: every command that writes there asks this
 * before it touches anything (a run, its plan, state reset, compact, vacuum, repair, migrate).
 */
export function checkLocalPathRoom(paths: LocalPaths, max = maxLocalPathBytes()): void {
  if (max === undefined) return;
  const { output, state } = paths;
  const problem =
    (output === undefined ? undefined : tooDeep(output, LOCAL_LAKE_RESERVE_BYTES, max, 'output', 'an --output')) ??
    (output === undefined ? undefined : (paths.sinkFiles ?? []).map((file) => fileTooLong(output, file, max)).find((e) => e !== undefined)) ??
    (state === undefined ? undefined : tooDeep(state.dir, stateFilesReserve(state.pipeline), max, `the state folder of pipeline ${state.pipeline},`, 'a shorter --state-dir (or --output, whose .state it is by default),'));
  if (problem !== undefined) throw problem;
}
