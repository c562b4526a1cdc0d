import { DEFAULT_DECIMAL, type DecimalType } from '../core/decimal.js';
import { fileDecimal } from './reader/file-decimal.js';
import type { LakeStorage } from './storage/lake-storage.js';

/**
 * The DECIMAL(p,s) every live file's values fit, read from each file's footer: a hive dataset's
 * compaction writes it, and a Delta table whose log was lost declares it in its new log. Files
 * written before the sink's `decimal` was changed keep their type, so a lake may hold several: the
 * most integer digits and the largest scale of them (at most 38 digits). Taking one file's type
 * refused, on every attempt, the values of a partition written wider. A missing or damaged file
 * (what `repair` drops) is passed over: its partition says so itself. No readable file: the default.
 */
export async function liveFilesDecimal(storage: LakeStorage, format: string, dataset: string, files: readonly { path: string }[]): Promise<DecimalType> {
  let integer = -1;
  let scale = -1;
  for (const file of files) {
    const type = await fileDecimal(storage, format, `${dataset}/${file.path}`).catch(() => undefined);
    if (type === undefined) continue;
    integer = Math.max(integer, type.precision - type.scale);
    scale = Math.max(scale, type.scale);
  }
  return integer < 0 ? DEFAULT_DECIMAL : { precision: Math.min(38, integer + scale), scale };
}
