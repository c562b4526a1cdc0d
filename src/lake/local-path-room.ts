/**
 * The room a local output (and a local state folder) leaves for quotelake's own files under it: a
 * path has at most PATH_MAX - 1 bytes, and an output too deep for the lake's longest file would be
 * created and probed, then fail at its first staged file, after the run's requests were spent (and
 * fail the same way every time). Refused before the run touches anything, as an s3:// prefix too
 * long for S3's keys is (core/s3-url.ts).
 */
import { resolve } from 'node:path';
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

/**
 * Throws when the output (local) or the state folder (local) is too deep for the files a run of
 * `pipeline` writes under it. `stateDir` undefined: the state is not in a local folder.
 */
export function checkLocalPathRoom(outputDir: string | undefined, stateDir: string | undefined, pipeline: string, max = maxLocalPathBytes()): void {
  if (max === undefined) return;
  const output = outputDir === undefined ? undefined : tooDeep(outputDir, LOCAL_LAKE_RESERVE_BYTES, max, 'output', 'an --output');
  if (output !== undefined) throw output;
  const state = stateDir === undefined ? undefined : tooDeep(stateDir, stateFilesReserve(pipeline), max, `the state folder of pipeline ${pipeline},`, 'a shorter --state-dir (or --output, whose .state it is by default),');
  if (state !== undefined) throw state;
}
