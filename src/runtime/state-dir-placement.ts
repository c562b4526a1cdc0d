/**
 * A local state folder inside the lake's own places is refused before a run (or its plan) touches
 * anything: inside a dataset folder its JSON files are what a directory reader (pyarrow, Spark,
 * polars) takes for data, and inside `_quotelake/` a run's recovery deletes the staging folder
 * whole, so the checkpoints and today's quota count went with it and every run fetched everything
 * again. `<output>/.state` (the default), `_quotelake/state` (an S3 lake's place) and any folder
 * outside the output stay allowed. So is an output inside another lake's dataset folder (`--output
 * lake/kline`): the run wrote a second lake there, whose files a glob of the first one read as its own.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { DATASETS } from '../core/records.js';
import { LAKE_DIR } from '../lake/lake-paths.js';
import { enclosingLake, LAYOUT_FILE, lakeFolderNamed, lakeFolderOf } from '../lake/layout/index.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { lakeArgs } from '../core/lake-args.js';
import { LAKE_STATE_DIR } from './state-location.js';

/** Why `stateDir` may not hold a run's state under `output`, or undefined when it may. */
export function stateDirPlacementProblem(output: string, stateDir: string): string | undefined {
  const inside = relative(resolve(output), resolve(stateDir));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const parts = inside.split(sep);
  const top = parts[0]!;
  if ((DATASETS as readonly string[]).includes(top)) return `is in the ${top} dataset's folder, which holds the lake's data files only`;
  if (top !== LAKE_DIR) return undefined;
  const stateParts = LAKE_STATE_DIR.split('/');
  if (parts.length >= stateParts.length && stateParts.every((p, i) => parts[i] === p)) return undefined;
  return `is under ${LAKE_DIR}, whose files the runs rewrite and delete (its staging folder is emptied at every run's start)`;
}

/** `output`, `stateDir`: the local folders of the run; undefined where one is not local. */
export function checkStateDirPlacement(output: string | undefined, stateDir: string | undefined): void {
  if (output === undefined || stateDir === undefined) return;
  const problem = stateDirPlacementProblem(output, stateDir);
  if (problem === undefined) return;
  throw new ConfigError(
    `state dir ${stateDir} ${problem}`,
    {},
    undefined,
    `give a state folder outside the dataset folders and ${LAKE_DIR}/ (default <output>/.state); nothing was sent or written`,
  );
}

/** A local output inside another lake's dataset folder or `_`/`.` folder: a second lake among its data files. */
export async function checkOutputPlacement(output: string | undefined): Promise<void> {
  if (output === undefined) return;
  const lakeAbove = await enclosingLake(output);
  const where = lakeAbove === undefined ? undefined : lakeFolderOf(output, lakeAbove);
  if (where === undefined) return;
  throw new ConfigError(
    `output ${output} is inside the lake ${lakeAbove!}, in ${where}: a run there would write a second lake among its files`,
    {},
    undefined,
    `give the lake's folder (--output ${lakeAbove!}) or a folder outside it; nothing was sent or written`,
  );
}

/**
 * The same for a lake on an object store (`--output s3://bucket/lake/kline`, as Delta tools take a
 * table's path): a run there wrote a second lake among the first one's data objects, which that
 * lake's recovery sweeps as objects no manifest lists. A store without parents to look at passes.
 */
export async function remoteOutputPlacement(storage: LakeStorage): Promise<{ root: string; where: string } | undefined> {
  const above = await storage.enclosingLake?.(LAYOUT_FILE);
  const where = above === undefined ? undefined : lakeFolderNamed(above.top);
  return where === undefined ? undefined : { root: above!.root, where };
}

export async function checkRemoteOutputPlacement(storage: LakeStorage): Promise<void> {
  const above = await remoteOutputPlacement(storage);
  if (above === undefined) return;
  throw new ConfigError(
    `output ${storage.root} is inside the lake ${above.root}, in ${above.where}: a run there would write a second lake among its objects`,
    {},
    undefined,
    `give the lake's prefix (${lakeArgs(above.root, storage.endpoint)}) or a prefix outside it; nothing was sent or written`,
  );
}
