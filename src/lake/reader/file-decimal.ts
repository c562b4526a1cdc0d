/**
 * The DECIMAL(p,s) a data file was written with, from its footer alone (the sinks write one type
 * for every decimal column, nested book levels included).
 */
import type { DecimalType } from '../../core/decimal.js';
import { firstDecimal } from '../columns/decimal-type-of.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { openArrowFile } from './arrow-footer.js';
import { readParquetMetadata } from './parquet-footer.js';
import { withRangeFile } from './range-file.js';

/** Undefined for a file without a decimal column. Throws when the footer cannot be read. */
export function fileDecimal(storage: LakeStorage, format: string, key: string): Promise<DecimalType | undefined> {
  return withRangeFile(storage, key, async (range) => {
    if (format === 'arrow') return firstDecimal((await openArrowFile(range)).schema.fields);
    const leaf = (await readParquetMetadata(range)).schema.find((e) => e.logical_type?.type === 'DECIMAL' || e.converted_type === 'DECIMAL');
    return leaf === undefined ? undefined : { precision: leaf.precision ?? 38, scale: leaf.scale ?? 0 };
  });
}
