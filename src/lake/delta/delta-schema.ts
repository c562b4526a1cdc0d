/**
 * A dataset's Arrow schema (src/core/schemas.ts) as a Delta schema (PROTOCOL.md "Schema
 * Serialization Format"), with the hive keys of its partition path appended as partition columns:
 * Delta requires partition columns in the table schema although, since layout 2, no file holds them.
 *
 * Only types that need no table feature are produced (reader 1 / writer 2): a timestamp without a
 * time zone would need `timestampNtz` (reader 3 / writer 7), so it is refused rather than mapped.
 * Delta's `timestamp` is microseconds, UTC: the log declares it, and the file writer must store
 * TIMESTAMP(MICROS, isAdjustedToUTC=true) for tables with a log (ours store milliseconds today).
 */
import { DataType, type Field, type Schema } from 'apache-arrow';
import type { DecimalType } from '../../core/decimal.js';
import { DeltaLogError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';

export type DeltaType =
  | string
  | { type: 'struct'; fields: DeltaField[] }
  | { type: 'array'; elementType: DeltaType; containsNull: boolean };

export interface DeltaField {
  name: string;
  type: DeltaType;
  nullable: boolean;
  metadata: Record<string, never>;
}

export interface DeltaPartitionColumn {
  name: string;
  /** Delta primitive type of the value in the path: `string`, `integer`, `date`. */
  type: 'string' | 'integer' | 'date';
  nullable: boolean;
}

/**
 * The hive keys of each dataset's partition path (datasets/*.ts `partition`), in path order.
 * kline's `date` is the hive NULL for daily and longer bars, hence nullable.
 */
export const DELTA_PARTITION_COLUMNS: Readonly<Record<Dataset, readonly DeltaPartitionColumn[]>> = {
  kline: [
    { name: 'interval', type: 'string', nullable: false },
    { name: 'year', type: 'integer', nullable: false },
    { name: 'date', type: 'date', nullable: true },
  ],
  trade: [{ name: 'date', type: 'date', nullable: false }],
  depth: [{ name: 'date', type: 'date', nullable: false }],
  halt: [
    { name: 'exchange', type: 'string', nullable: false },
    { name: 'year', type: 'integer', nullable: false },
  ],
};

function deltaTypeOf(type: DataType, column: string): DeltaType {
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'string';
  if (DataType.isBool(type)) return 'boolean';
  if (DataType.isDecimal(type)) return `decimal(${type.precision},${type.scale})`;
  if (DataType.isFloat(type)) return type.precision === 2 ? 'double' : 'float';
  if (DataType.isInt(type)) {
    if (!type.isSigned) throw new DeltaLogError(`column ${column}: unsigned integers have no Delta type`, '');
    return ({ 8: 'byte', 16: 'short', 32: 'integer', 64: 'long' } as const)[type.bitWidth];
  }
  if (DataType.isDate(type)) return 'date';
  if (DataType.isTimestamp(type)) {
    if (!type.timezone) {
      throw new DeltaLogError(`column ${column}: a timestamp without a time zone needs Delta's timestampNtz feature (reader 3 / writer 7)`, '');
    }
    return 'timestamp';
  }
  if (DataType.isList(type)) {
    const item = type.children[0]!;
    return { type: 'array', elementType: deltaTypeOf(item.type, `${column}[]`), containsNull: item.nullable };
  }
  if (DataType.isStruct(type)) return { type: 'struct', fields: type.children.map((f) => deltaField(f, `${column}.`)) };
  throw new DeltaLogError(`column ${column}: Arrow type ${String(type)} has no Delta mapping here`, '');
}

function deltaField(field: Field, prefix = ''): DeltaField {
  return { name: field.name, type: deltaTypeOf(field.type, `${prefix}${field.name}`), nullable: field.nullable, metadata: {} };
}

/** The Delta struct of an Arrow schema plus the partition columns (appended, as Spark does). */
export function deltaSchemaOf(schema: Schema, partitionColumns: readonly DeltaPartitionColumn[]): { type: 'struct'; fields: DeltaField[] } {
  const fields = schema.fields.map((f) => deltaField(f));
  for (const p of partitionColumns) {
    if (fields.some((f) => f.name.toLowerCase() === p.name.toLowerCase())) {
      throw new DeltaLogError(`partition column ${p.name} is also a file column (layout 2 keeps hive keys in the path only)`, '');
    }
    fields.push({ name: p.name, type: p.type, nullable: p.nullable, metadata: {} });
  }
  return { type: 'struct', fields };
}

/** The `schemaString` of a dataset's table at the sink's DECIMAL(p,s). */
export function datasetSchemaString(dataset: Dataset, decimal?: DecimalType): string {
  return JSON.stringify(deltaSchemaOf(datasetSchema(dataset, decimal), DELTA_PARTITION_COLUMNS[dataset]));
}
