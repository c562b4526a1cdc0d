/**
 * Whether quotelake may add files to a Delta table as its log stands, asked before a run writes:
 * - a writer must not write a table whose protocol asks for a newer writer or for writer features
 *   (PROTOCOL.md "Protocol Evolution"; another engine may have upgraded the table), and
 * - every data file column must have the type the table schema declares ("Consistency Between
 *   Table Metadata and Data Files"): files of another DECIMAL(p,s) than the log's break readers
 *   that follow the log, so a sink whose `decimal` differs from the table's is refused.
 */
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import type { MetaDataAction, ProtocolAction } from './delta-actions.js';
import { datasetSchemaString } from './delta-schema.js';
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

/** Why files this sink writes would not match the table's schema, or undefined when they do. */
export function schemaMismatch(metaData: MetaDataAction, dataset: Dataset, decimal: DecimalType): string | undefined {
  if (metaData.schemaString === datasetSchemaString(dataset, decimal)) return undefined;
  const ours = `DECIMAL(${decimal.precision},${decimal.scale})`;
  const table = tableDecimal(metaData);
  // The table is ours at another decimal type: the fix is the sink's decimal.
  if (table !== undefined && metaData.schemaString === datasetSchemaString(dataset, table)) {
    return (
      `the Delta table's log declares DECIMAL(${table.precision},${table.scale}) columns and this sink writes ${ours}, ` +
      `and files of another type than the log's break Delta readers: set sink decimal: { precision: ${table.precision}, scale: ${table.scale} }, or write to a new output`
    );
  }
  return `the Delta table's schema (its log's metaData) is not the ${dataset} schema quotelake writes at ${ours}: write to a new output`;
}
