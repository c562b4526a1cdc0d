/**
 * `repair` of a lake's layout file (`_quotelake/layout.json`) when it is damaged, or missing while
 * the pipelines' checkpoints name the lake's id: it is written again with that id, so the runs
 * resume where they were instead of refusing their checkpoints as another lake's (and being told
 * to start over).
 */
import { SinkError } from '../core/errors.js';
import { MANIFESTS_DIR } from '../lake/lake-paths.js';
import { findLayoutFile, layoutFileWhere, MIGRATION_JOURNAL, writeLayoutFile } from '../lake/layout/index.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { checkpointLakeIds } from './checkpoint-lakes.js';
import type { StateRef } from './state-location.js';

export interface LayoutRepair {
  /** What was wrong: the file's damage, or that it is missing. */
  readonly problem: string;
  /** The id written back, from the checkpoints; null when none names one (the next run draws one). */
  readonly lakeId: string | null;
  /** The pipelines whose checkpoints named it. */
  readonly pipelines: readonly string[];
  /** False for a dry run: what would be written. */
  readonly written: boolean;
}

/** Undefined when the layout file needs nothing (sound, or missing from a lake no checkpoint names). */
export async function repairLayout(lake: LakeStorage, state: StateRef, options: { readonly dryRun: boolean; readonly now: Date }): Promise<LayoutRepair | undefined> {
  const found = await findLayoutFile(lake);
  if (found?.file !== undefined) return undefined;
  const ids = await checkpointLakeIds(state);
  if (found === undefined && ids.size === 0) return undefined;
  const where = layoutFileWhere(lake);
  // The layout is 2 from the manifests' place; a lake still moving from layout 1 is migrate's to finish.
  if (await lake.exists(MIGRATION_JOURNAL)) {
    throw new SinkError(`${found?.damage ?? `${where} is missing`}, and a migration from layout 1 is under way`, 'commit', undefined, `remove ${where} and run "quotelake migrate --output ${lake.root}", which finishes the migration and writes it`);
  }
  if (found === undefined && (await lake.list(`${MANIFESTS_DIR}/`, { limit: 1 })).length === 0) return undefined;
  if (ids.size > 1) {
    const named = [...ids].map(([id, pipelines]) => `${id} (${pipelines.join(', ')})`).join(', ');
    throw new SinkError(
      `${found?.damage ?? `${where} is missing`}, and the checkpoints name ${ids.size} lakes: ${named}`,
      'commit',
      undefined,
      "the state folder serves more than one output: give --state-dir the folder of this output's own runs",
    );
  }
  const [entry] = [...ids];
  const lakeId = entry?.[0] ?? null;
  if (!options.dryRun) await writeLayoutFile(lake, options.now, undefined, lakeId ?? undefined);
  return { problem: found?.damage ?? `${where} is missing`, lakeId, pipelines: entry?.[1] ?? [], written: !options.dryRun };
}
