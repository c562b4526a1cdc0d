/**
 * The lake a folder lies in, when the folder is not a lake itself: the nearest folder above it with
 * a layout file. A dataset's folder given for an output (`lake/kline`) reads as an empty lake, and a
 * run there would write a second lake among the first one's data files.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { DATASETS } from '../../core/records.js';
import { LAYOUT_FILE } from './layout-file.js';

/** The nearest folder above `output` holding a lake's layout file, when `output` holds none itself (as given: relative stays relative). */
export async function enclosingLake(output: string): Promise<string | undefined> {
  const exists = (dir: string) => stat(join(dir, LAYOUT_FILE)).then(() => true, () => false);
  if (await exists(output)) return undefined;
  for (let dir = resolve(output), up = dirname(dir); up !== dir; dir = up, up = dirname(up)) {
    if (await exists(up)) return relative(process.cwd(), up) === '' ? '.' : relative(process.cwd(), up).startsWith('..') ? up : relative(process.cwd(), up);
  }
  return undefined;
}

/** Where `output` lies in the lake `lakeAbove` when that is among the lake's own folders (a dataset's, or a `_`/`.` one), else undefined. */
export function lakeFolderOf(output: string, lakeAbove: string): string | undefined {
  return lakeFolderNamed(relative(resolve(lakeAbove), resolve(output)).split(sep)[0]!);
}

/** The same for the first folder (or S3 prefix segment) below a lake's root. */
export function lakeFolderNamed(top: string): string | undefined {
  if ((DATASETS as readonly string[]).includes(top)) return `the ${top} dataset's folder`;
  if (top.startsWith('_') || top.startsWith('.')) return `its own ${top} folder`;
  return undefined;
}
