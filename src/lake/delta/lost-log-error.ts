/**
 * What a command says of a Delta table whose log holds no version any more (table-kind.ts
 * lostDeltaLog): a commit would start a new table of its own files, and a vacuum could not tell
 * the table's files from orphans. Both refuse it (exit 1) and name the repair that writes the log.
 */
import { DeltaLogError } from '../../core/errors.js';
import { lakeArgs } from '../../core/lake-args.js';
import type { LakeStorage } from '../storage/lake-storage.js';

/** `refused`: what the command does not do to the table; `then`: what to do after the repair. */
export function lostDeltaLogError(storage: LakeStorage, dataset: string, liveFiles: number, refused: string, then: string): DeltaLogError {
  return new DeltaLogError(
    `${storage.root}/${dataset} is a Delta table (its manifest records it) whose _delta_log/ holds no version any more: Delta readers no longer open it, and ${refused}`,
    '',
    {
      hint:
        `restore ${dataset}/_delta_log/ from a backup of the output, or write a new log naming the manifest's ${liveFiles} live file${liveFiles === 1 ? '' : 's'}: ` +
        `"quotelake repair ${lakeArgs(storage.root, storage.endpoint)} --dry-run" shows it, --yes writes it; then ${then}`,
    },
  );
}
