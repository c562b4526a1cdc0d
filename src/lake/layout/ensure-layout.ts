/**
 * What a run (or `quotelake migrate`) does with the lake's layout before anything else touches it,
 * under the output lock: a future layout is refused (FormatVersionError names the version and says
 * to upgrade), a layout-1 lake or an interrupted migration is migrated, and a lake without a
 * layout file gets one.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LAKE_DIR, MANIFESTS_DIR } from '../lake-paths.js';
import { storageOf, type LakeLocation } from '../storage/storage-of.js';
import { LAYOUT_VERSION } from '../layout-version.js';
import { readLayoutFile, writeLayoutFile } from './layout-file.js';
import { hasLayout1Markers, hasMigrationJournal, migrateLayout1To2, type MigrationHooks, type MigrationReport } from './migrate-layout.js';

export interface LayoutState {
  /** The lake's layout: 1 for a 0.1.0 lake, LAYOUT_VERSION once migrated or new, undefined when empty. */
  readonly version: number | undefined;
  /** A migration was interrupted: the next start finishes it. */
  readonly migrationPending: boolean;
  readonly hasLayoutFile: boolean;
}

/**
 * An output given as a folder, or as a storage: a remote one (an object store) never held a
 * layout-1 lake (0.1.0 wrote folders only), so it has nothing to migrate.
 */
function localFolder(output: LakeLocation): string | undefined {
  return typeof output === 'string' ? output : output.localPath(LAKE_DIR) === undefined ? undefined : output.root;
}

export async function layoutState(output: LakeLocation): Promise<LayoutState> {
  const file = await readLayoutFile(output);
  const outputDir = localFolder(output);
  if (outputDir === undefined) {
    if (file) return { version: file.version, migrationPending: false, hasLayoutFile: true };
    const hasManifests = (await storageOf(output).list(`${MANIFESTS_DIR}/`)).length > 0;
    return { version: hasManifests ? LAYOUT_VERSION : undefined, migrationPending: false, hasLayoutFile: false };
  }
  const migrationPending = await hasMigrationJournal(outputDir);
  if (file) return { version: file.version, migrationPending, hasLayoutFile: true };
  if (migrationPending || (await hasLayout1Markers(outputDir))) return { version: 1, migrationPending, hasLayoutFile: false };
  const hasManifests = await stat(join(outputDir, MANIFESTS_DIR)).then(
    () => true,
    () => false,
  );
  return { version: hasManifests ? LAYOUT_VERSION : undefined, migrationPending: false, hasLayoutFile: false };
}

/** One line for the logger: what was migrated, how many files. */
export function describeMigration(report: MigrationReport): string {
  const verb = report.dryRun ? 'would migrate' : report.resumed ? 'finished migrating' : 'migrated';
  const parts = [
    `${report.filesRewritten} file(s) rewritten without their hive-key column`,
    `${report.filesKept} kept`,
    `${report.manifestsMoved} manifest(s) moved to _quotelake/manifests/`,
  ];
  if (report.journalsRolledForward > 0) parts.push(`${report.journalsRolledForward} pending 0.1.0 commit(s) rolled forward`);
  if (report.orphansRemoved > 0) parts.push(`${report.orphansRemoved} unlisted file(s) removed`);
  return `${verb} the lake from layout ${report.from} (quotelake 0.1.0) to layout ${report.to}: ${parts.join(', ')}`;
}

/**
 * Bring the lake to the current layout. Returns the migration's report when one ran (or, with
 * `dryRun`, would run); undefined when the lake was already current or is new.
 */
export async function ensureLayout(output: LakeLocation, options: { now: Date; dryRun?: boolean; hooks?: MigrationHooks }): Promise<MigrationReport | undefined> {
  const state = await layoutState(output);
  const outputDir = localFolder(output);
  if (outputDir !== undefined && (state.version === 1 || state.migrationPending)) return migrateLayout1To2(outputDir, options);
  if (!options.dryRun && state.version !== undefined && !state.hasLayoutFile) await writeLayoutFile(output, options.now);
  return undefined;
}

/** After a run: a lake that has come to hold data records its layout. */
export async function recordLayout(output: LakeLocation, now: Date): Promise<void> {
  const state = await layoutState(output);
  if (state.version !== undefined && !state.hasLayoutFile) await writeLayoutFile(output, now);
}
