/**
 * The DECIMAL(p,s) a file was written with: its first decimal field's (the sinks write one type for
 * every decimal column). Nested types are searched too, as an order-book file has decimals only
 * inside its levels.
 */
import { DataType, type Decimal, type Field, type Schema } from 'apache-arrow';
import { DEFAULT_DECIMAL, type DecimalType } from '../../core/decimal.js';

/** Undefined when no field, nested ones included, is a decimal. */
export function firstDecimal(fields: readonly Field[]): DecimalType | undefined {
  for (const field of fields) {
    if (DataType.isDecimal(field.type)) {
      const type = field.type as Decimal;
      return { precision: type.precision, scale: type.scale };
    }
    const inner = firstDecimal(field.type.children ?? []);
    if (inner) return inner;
  }
  return undefined;
}

/** The default type for a file without decimals (nothing in it to keep). */
export function decimalTypeOf(schema: Schema): DecimalType {
  return firstDecimal(schema.fields) ?? DEFAULT_DECIMAL;
}
