/**
 * The layouts compact, vacuum and repair work on. They take a lake as they find it and never
 * migrate it, so a lake they cannot read right is refused before anything is touched (the lock
 * included): a newer layout (FormatVersionError, exit 1: upgrade), a 0.1.0 lake and a migration
 * stopped half-way (exit 2: migrate first). The manifests of those are not, or not all, where
 * layout 2 keeps them: the command would say "nothing to compact" of a lake full of data, or
 * rewrite files a migration is about to move. A damaged layout file stops none of them: they do
 * not need it, and repair writes it again; but with a migration under way it is exit 1, as repair
 * says it: migrate stops on a damaged layout file, so it must go first.
 */
import { hasLayout1Markers, hasMigrationJournal } from '../lake/layout/migrate-layout.js';
import { findLayoutFile, layoutFileWhere } from '../lake/layout/index.js';
import { LAKE_DIR } from '../lake/lake-paths.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { SinkError } from '../core/errors.js';
import { UsageError } from './usage-error.js';

/** A 0.1.0 lake, named as such (inspect says it the same way). */
export function layout1Refusal(output: string): UsageError {
  return new UsageError(`${output} is a lake written by quotelake 0.1.0 (layout 1)`, `run "quotelake migrate --output ${output}" (or any run on it) first`);
}

export async function checkMaintainedLayout(output: string, storage: LakeStorage): Promise<void> {
  // Throws for a newer layout; a damaged file comes back as `damage`, which is no reason to stop here.
  const found = await findLayoutFile(storage);
  // An object store never held a layout-1 lake (0.1.0 wrote folders only).
  if (storage.localPath(LAKE_DIR) === undefined) return;
  if (await hasMigrationJournal(storage.root)) {
    // The layout file damaged too: migrate stops on it, so it goes first (repair says the same).
    if (found?.damage !== undefined) {
      const where = layoutFileWhere(storage);
      throw new SinkError(`${found.damage}, and a migration from layout 1 is under way`, 'commit', undefined, `remove ${where} and run "quotelake migrate --output ${output}", which finishes the migration and writes it`);
    }
    throw new UsageError(
      `${output} is being migrated from layout 1 (quotelake 0.1.0), and the migration was stopped half-way`,
      `run "quotelake migrate --output ${output}" (or any run on it), which finishes it, first`,
    );
  }
  if (found?.file === undefined && (await hasLayout1Markers(storage.root))) throw layout1Refusal(output);
}
