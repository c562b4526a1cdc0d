/**
 * `<output>/_quotelake/layout.json`: which layout the lake is in, written when a lake is created or
 * migrated. Its `version` is the layout version (layout-version.ts); a lake of a newer layout is
 * refused before anything in it is touched.
 */
import { join, posix } from 'node:path';
import { removeStaleTempFiles } from '../../core/atomic-write.js';
import { SinkError } from '../../core/errors.js';
import { lakeArgs } from '../../core/lake-args.js';
import { versionOf, type VersionChain } from '../../core/version-steps.js';
import { LAKE_DIR } from '../lake-paths.js';
import { LAYOUT_VERSION } from '../layout-version.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { storageOf, type LakeLocation } from '../storage/storage-of.js';

export const LAYOUT_FILE = posix.join(LAKE_DIR, 'layout.json');

export interface LayoutFile {
  readonly version: number;
  /** The quotelake that wrote this file (created or migrated the lake). */
  readonly quotelakeVersion: string;
  readonly updatedAt: string;
  /** Set when the lake was migrated to this layout, from that one. */
  readonly migratedFrom?: number;
  /**
   * Drawn once for the lake (lake-id.ts); checkpoints record it, so a state folder shared by two
   * outputs is not resumed for the wrong one. Absent in files written before it existed.
   */
  readonly lakeId?: string;
}

/**
 * Layout versions are not upgraded in memory like a manifest: moving a lake from one layout to the
 * next rewrites files (migrate-layout.ts). The chain here only checks the version is one we know.
 */
const LAYOUT_CHAIN: VersionChain = { what: 'lake layout', newest: LAYOUT_VERSION, steps: {} };

export function layoutFilePath(outputDir: string): string {
  return join(outputDir, LAYOUT_FILE);
}

/** What a layout file holds as found: the file, or why it cannot be used (`damage`). */
export type LayoutFileFound = { readonly file: LayoutFile; readonly damage?: undefined } | { readonly file?: undefined; readonly damage: string };

/** Where the layout file of `output` is, for messages. */
export function layoutFileWhere(output: LakeLocation): string {
  return typeof output === 'string' ? layoutFilePath(output) : `${storageOf(output).root}/${LAYOUT_FILE}`;
}

/**
 * The layout file as found, or undefined when there is none. Content that is not a layout file
 * (torn, not JSON, no valid version) is returned as `damage`, for `repair` to write it again; a
 * future layout version is refused (FormatVersionError): that lake is not damaged, only newer.
 */
export async function findLayoutFile(output: LakeLocation): Promise<LayoutFileFound | undefined> {
  const path = layoutFileWhere(output);
  let text: string;
  try {
    const bytes = await storageOf(output).read(LAYOUT_FILE);
    if (bytes === undefined) return undefined;
    text = Buffer.from(bytes).toString('utf8');
  } catch (error) {
    throw new SinkError(`cannot read ${path}`, 'commit', error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { damage: `${path} is not valid JSON (${(error as Error).message})` };
  }
  const version = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).version : undefined;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return { damage: `${path} has no valid layout version (found ${JSON.stringify(version) ?? 'none'})` };
  versionOf(parsed, LAYOUT_CHAIN, path);
  const lakeId = (parsed as Record<string, unknown>).lakeId;
  if (lakeId !== undefined && (typeof lakeId !== 'string' || !/^[0-9a-f]{16}$/.test(lakeId))) return { damage: `${path} has a lake id that is not one (${JSON.stringify(lakeId)})` };
  return { file: parsed as LayoutFile };
}

/** The layout file, or undefined when there is none; damaged content is an error naming `repair`. */
export async function readLayoutFile(output: LakeLocation): Promise<LayoutFile | undefined> {
  const found = await findLayoutFile(output);
  if (found?.damage === undefined) return found?.file;
  const where = typeof output === 'string' ? lakeArgs(output) : lakeArgs(storageOf(output).root, storageOf(output).endpoint);
  throw new SinkError(
    found.damage,
    'commit',
    undefined,
    `the layout file records the lake's layout version and id; "quotelake repair ${where} --yes" writes it again, with the id taken back from the pipelines' checkpoints (--dry-run first shows what it would write)`,
  );
}

export async function writeLayoutFile(output: LakeLocation, now: Date, migratedFrom?: number, lakeId?: string): Promise<LayoutFile> {
  const file: LayoutFile = {
    version: LAYOUT_VERSION,
    quotelakeVersion: PACKAGE_VERSION,
    updatedAt: now.toISOString(),
    ...(migratedFrom !== undefined ? { migratedFrom } : {}),
    ...(lakeId !== undefined ? { lakeId } : {}),
  };
  // publish: atomic on every backend (a rename locally, one PUT on an object store).
  await storageOf(output).publish(LAYOUT_FILE, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/**
 * Temp files of the layout file that a killed writer left beside it (`.layout.json.tmp-…`):
 * removed by a run that holds the output, so no writer of the layout file is live. Returns how
 * many. Only a folder has them: an object store publishes in one PUT.
 */
export async function removeStaleLayoutTemps(output: LakeLocation): Promise<number> {
  const dir = storageOf(output).localPath(LAKE_DIR);
  return dir === undefined ? 0 : (await removeStaleTempFiles(dir)).length;
}
