/** The DECIMAL(p,s) a file was written with: its first decimal column's (the sinks write one type for all). */
import { DataType, type Decimal, type Schema } from 'apache-arrow';
import { DEFAULT_DECIMAL, type DecimalType } from '../../core/decimal.js';

export function decimalTypeOf(schema: Schema): DecimalType {
  const field = schema.fields.find((f) => DataType.isDecimal(f.type));
  if (!field) return DEFAULT_DECIMAL;
  const type = field.type as Decimal;
  return { precision: type.precision, scale: type.scale };
}
