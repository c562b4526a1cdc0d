/**
 * The codec's last check: every Decimal128 value of a table has at most its column's precision
 * digits. The sink rejects such rows before they are buffered (decimal-misfit.ts), so a failure here
 * is a bug upstream; it stops the file rather than write a value no reader accepts.
 */
import { DataType, type Data, type Decimal, type Table } from 'apache-arrow';
import { decimalWordsFit, formatDecimalWords } from '../../core/decimal.js';
import { SinkError } from '../../core/errors.js';

function isValid(data: Data, i: number): boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return true;
  const j = data.offset + i;
  return ((bitmap[j >> 3]! >> (j & 7)) & 1) === 1;
}

function checkData(data: Data, name: string): void {
  if (DataType.isDecimal(data.type)) {
    const type = data.type as Decimal;
    const words = data.values as Uint32Array;
    for (let i = 0; i < data.length; i++) {
      if (isValid(data, i) && !decimalWordsFit(words, 4 * i, type.precision)) {
        throw new SinkError(`column ${name}: value ${formatDecimalWords(words, 4 * i, type.scale)} does not fit DECIMAL(${type.precision},${type.scale})`);
      }
    }
    return;
  }
  for (const child of data.children) checkData(child, name);
}

export function assertDecimalsFit(table: Table): void {
  table.schema.fields.forEach((field, c) => {
    if (!DataType.isDecimal(field.type) && ((field.type as DataType).children?.length ?? 0) === 0) return;
    for (const batch of table.batches) checkData(batch.data.children[c]!, field.name);
  });
}
