/**
 * Whether quotelake may add files to a Delta table as its log stands, asked before a run writes:
 * - a writer must not write a table whose protocol asks for a newer writer or for writer features
 *   (PROTOCOL.md "Protocol Evolution"; another engine may have upgraded the table), and
 * - every data file column must have the type the table schema declares ("Consistency Between
 *   Table Metadata and Data Files"): files of another DECIMAL(p,s) than the log's break readers
 *   that follow the log, so a sink whose `decimal` differs from the table's is refused.
 * Schemas are compared as the JSON they are, not as bytes: another engine that rewrites the
 * metaData (a table property set with Spark or delta-rs) may serialise the same schema otherwise.
 * A column the table has and quotelake does not write (a newer writer added it), or the reverse,
 * is named: files without it, or without the table's, are not the table's.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import type { MetaDataAction, ProtocolAction } from './delta-actions.js';
import { datasetSchemaString, type DeltaField } from './delta-schema.js';
import { DELTA_PROTOCOL } from './delta-table-metadata.js';

/** Why quotelake (a writer of version 2, no table features) cannot write under this protocol, or undefined. */
export function unsupportedWriterProtocol(protocol: ProtocolAction): string | undefined {
  const p = protocol as ProtocolAction & { writerFeatures?: unknown };
  const features = Array.isArray(p.writerFeatures) && p.writerFeatures.length > 0 ? ` (writer features ${p.writerFeatures.join(', ')})` : '';
  if (p.minWriterVersion > DELTA_PROTOCOL.minWriterVersion || features !== '') {
    return `the table needs Delta writer version ${p.minWriterVersion}${features}; quotelake writes version ${DELTA_PROTOCOL.minWriterVersion} tables only, so it adds nothing to this one`;
  }
  return undefined;
}

/** The DECIMAL(p,s) a table's schema declares (the first `decimal(p,s)`: quotelake uses one for all). */
export function tableDecimal(metaData: MetaDataAction): DecimalType | undefined {
  const m = /"decimal\((\d+),(\d+)\)"/.exec(metaData.schemaString);
  return m === null ? undefined : { precision: Number(m[1]), scale: Number(m[2]) };
}

function parsedSchema(schemaString: string): { fields?: DeltaField[] } | undefined {
  try {
    return JSON.parse(schemaString) as { fields?: DeltaField[] };
  } catch {
    return undefined;
  }
}

/** Whether two schema strings state the same schema (field order counts; key order and spacing do not). */
export function sameSchema(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [parsedSchema(a), parsedSchema(b)];
  return x !== undefined && y !== undefined && canonicalJson(x) === canonicalJson(y);
}

/** The top-level columns on which the table's schema and ours differ, named with their types. */
function columnDifferences(tableSchema: string, ours: string): string {
  const fields = (text: string) => new Map((parsedSchema(text)?.fields ?? []).map((f) => [f.name, f]));
  const [table, mine] = [fields(tableSchema), fields(ours)];
  const typeOf = (f: DeltaField) => `${typeof f.type === 'string' ? f.type : f.type.type}${f.nullable ? ', nullable' : ''}`;
  const only = (a: Map<string, DeltaField>, b: Map<string, DeltaField>) => [...a.values()].filter((f) => !b.has(f.name)).map((f) => `${f.name} (${typeOf(f)})`);
  const changed = [...table.values()].filter((f) => mine.has(f.name) && canonicalJson(f) !== canonicalJson(mine.get(f.name))).map((f) => `${f.name} (${typeOf(f)} in the log, ${typeOf(mine.get(f.name)!)} here)`);
  const parts = [
    only(table, mine).length > 0 ? `columns only in the log: ${only(table, mine).join(', ')}` : '',
    only(mine, table).length > 0 ? `columns the log lacks: ${only(mine, table).join(', ')}` : '',
    changed.length > 0 ? `columns of another type: ${changed.join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : 'the columns are the same, in another order or with other metadata';
}

/** Why files this sink writes would not match the table's schema, or undefined when they do. */
export function schemaMismatch(metaData: MetaDataAction, dataset: Dataset, decimal: DecimalType): string | undefined {
  if (sameSchema(metaData.schemaString, datasetSchemaString(dataset, decimal))) return undefined;
  const ours = `DECIMAL(${decimal.precision},${decimal.scale})`;
  const table = tableDecimal(metaData);
  // The table is ours at another decimal type: the fix is the sink's decimal.
  if (table !== undefined && sameSchema(metaData.schemaString, datasetSchemaString(dataset, table))) {
    return (
      `the Delta table's log declares DECIMAL(${table.precision},${table.scale}) columns and this sink writes ${ours}, ` +
      `and files of another type than the log's break Delta readers: set sink decimal: { precision: ${table.precision}, scale: ${table.scale} }, or write to a new output`
    );
  }
  return (
    `the Delta table's schema (its log's metaData) is not the ${dataset} schema this quotelake writes at ${ours} ` +
    `(${columnDifferences(metaData.schemaString, datasetSchemaString(dataset, decimal))}): a table another version or engine changed takes no files of this one; ` +
    `use the quotelake that wrote it, or write to a new output`
  );
}
