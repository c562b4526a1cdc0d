/**
 * Where a pipeline's state (checkpoints, run manifests) lives, I5:
 * - `--state-dir DIR` given: that local folder, whatever the output.
 * - a local output folder: `<output>/.state`, as always.
 * - an object-store output (`s3://bucket/prefix`): inside the lake, under `_quotelake/state/`, so a
 *   run on another host reads the checkpoints the last run saved and resumes where it stopped.
 *
 * Both are a LakeStorage plus a key prefix: the stores above it do not know which one they write to.
 */
import { posix } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { LAKE_DIR } from '../lake/lake-paths.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { localStorage } from '../lake/storage/local-storage.js';

/** The state's folder inside a lake on an object store. */
export const LAKE_STATE_DIR = posix.join(LAKE_DIR, 'state');

export interface StateLocation {
  readonly storage: LakeStorage;
  /** '' (a state folder of its own) or a key prefix ending in '/' (the lake's `_quotelake/state/`). */
  readonly prefix: string;
  /** For messages and `state show`: the folder, or the s3:// URL of the state prefix. */
  readonly where: string;
  /** The local folder when the state is one (today's paths are reported exactly as before). */
  readonly dir?: string;
}

/** What callers pass: a state folder (the local form every caller used so far), or a location. */
export type StateRef = StateLocation | string;

export function stateFolder(dir: string): StateLocation {
  return { storage: localStorage(dir), prefix: '', where: dir, dir };
}

export function stateInLake(lake: LakeStorage): StateLocation {
  return { storage: lake, prefix: `${LAKE_STATE_DIR}/`, where: `${lake.root.replace(/\/+$/, '')}/${LAKE_STATE_DIR}` };
}

export function stateLocationOf(ref: StateRef): StateLocation {
  return typeof ref === 'string' ? stateFolder(ref) : ref;
}

/** True when the lake is on this machine's file system (it has local paths). */
export function isLocalLake(lake: LakeStorage): boolean {
  return lake.localPath('_quotelake/probe') !== undefined;
}

/** I5: `--state-dir` wins; a local lake keeps `<output>/.state`; a lake on an object store keeps its state inside. */
export function defaultStateLocation(lake: LakeStorage, stateDir: string | undefined): StateLocation {
  if (stateDir !== undefined) return stateFolder(stateDir);
  if (isLocalLake(lake)) return stateFolder(`${lake.root.replace(/\/+$/, '')}/.state`);
  return stateInLake(lake);
}

/**
 * The state location of a run on `lake` with a `stateDir` setting as the CLI or a pipeline gives it.
 * An `s3://` stateDir can only be the lake's own state prefix (what the settings show as its default
 * for an S3 output): the state of an S3 lake is in the lake, or in a local folder.
 */
export function stateLocationFor(lake: LakeStorage, stateDir: string | undefined): StateLocation {
  if (stateDir === undefined || !stateDir.startsWith('s3://')) return defaultStateLocation(lake, stateDir);
  const inLake = stateInLake(lake);
  if (!isLocalLake(lake) && stateDir.replace(/\/+$/, '') === inLake.where) return inLake;
  throw new ConfigError(`state dir ${stateDir}: state is kept in the lake (${inLake.where}) or in a local folder, not at another s3:// location`);
}
