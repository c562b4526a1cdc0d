/**
 * What a --metrics-textfile path must be before anything is written or sent: checked by `run` and
 * `worker` before their first request, and by `run --dry-run`, which plans that same run.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { EnvironmentError } from '../core/errors.js';

/**
 * The collector's folder given without a file name (`.../textfile/`): Node's rename onto it says
 * ENOTDIR, which would be told as "a part of this path is a file" of a path made only of folders.
 */
function refuseFolderPath(path: string): void {
  if (!path.endsWith('/') && !path.endsWith(sep)) return;
  const folder = path.replace(/[\\/]+$/, '') || sep;
  throw new EnvironmentError(
    'QL_OUTPUT_MISSING',
    `--metrics-textfile ${path}: ends in "/", so it names a folder, where a file is written`,
    folder,
    `name a file in it: --metrics-textfile ${join(folder, 'quotelake.prom')} (node_exporter reads only *.prom files)`,
    { stage: 'config' },
  );
}

/**
 * The textfile's folder must exist: node_exporter reads one folder, so a typo in its path would
 * have the metrics written, folders and all, where nothing reads them.
 */
export async function refuseUnusablePath(path: string): Promise<void> {
  refuseFolderPath(path);
  const folder = dirname(resolve(path));
  const missing = await stat(folder).then(
    () => false,
    (error: unknown) => (error as { code?: unknown }).code === 'ENOENT',
  );
  // Any other failure (a file in the path, no access) is told by the first write, as before.
  if (!missing) return;
  throw missingFolder(path, folder);
}

/** The folder of `path` is not there (at the start, or removed while the command ran: a write's ENOENT). */
export function missingFolder(path: string, folder: string, cause?: unknown): EnvironmentError {
  return new EnvironmentError(
    'QL_OUTPUT_MISSING',
    `--metrics-textfile ${path}: the folder ${folder} does not exist`,
    folder,
    `create it (mkdir -p ${folder}) or fix the --metrics-textfile path: node_exporter reads only its --collector.textfile.directory`,
    { stage: 'config', ...(cause !== undefined ? { cause } : {}) },
  );
}
