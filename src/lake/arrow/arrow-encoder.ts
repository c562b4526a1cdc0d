/** Arrow table → Arrow IPC file format (`.arrow`), metadata in the schema. */
import { Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { assertDecimalsFit } from '../columns/decimal-guard.js';
import { assertArrowFile } from './arrow-file-magic.js';
import type { TableEncoder } from '../encode/table-encoder.js';

export function arrowEncoder(): TableEncoder {
  return {
    format: 'arrow',
    extension: '.arrow',
    encode(table, metadata) {
      // apache-arrow writes any 128-bit word as Decimal128(p, s): hold it to p digits first.
      assertDecimalsFit(table);
      const schema = new Schema(table.schema.fields, new Map(metadata));
      return tableToIPC(new Table(schema, table.batches), 'file');
    },
    decode(bytes) {
      assertArrowFile(bytes);
      return tableFromIPC(bytes);
    },
  };
}
