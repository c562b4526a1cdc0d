/**
 * `<output>/_quotelake/layout.json`: which layout the lake is in, written when a lake is created or
 * migrated. Its `version` is the layout version (layout-version.ts); a lake of a newer layout is
 * refused before anything in it is touched.
 */
import { join, posix } from 'node:path';
import { removeStaleTempFiles } from '../../core/atomic-write.js';
import { SinkError } from '../../core/errors.js';
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

/** The layout file, or undefined when there is none; a future layout version is refused (FormatVersionError). */
export async function readLayoutFile(output: LakeLocation): Promise<LayoutFile | undefined> {
  const storage = storageOf(output);
  const path = typeof output === 'string' ? layoutFilePath(output) : `${storage.root}/${LAYOUT_FILE}`;
  let text: string;
  try {
    const bytes = await storage.read(LAYOUT_FILE);
    if (bytes === undefined) return undefined;
    text = Buffer.from(bytes).toString('utf8');
  } catch (error) {
    throw new SinkError(`cannot read ${path}`, 'commit', error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SinkError(`${path} is not valid JSON`, 'commit', error);
  }
  versionOf(parsed, LAYOUT_CHAIN, path);
  return parsed as LayoutFile;
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
