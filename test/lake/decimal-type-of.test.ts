/** Which DECIMAL(p,s) a file holds is read from its schema, nested book levels included. */
import { DataType, Field, Int64, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { datasetSchema } from '../../src/core/schemas.js';
import { decimalTypeOf } from '../../src/lake/columns/decimal-type-of.js';

const NARROW = { precision: 20, scale: 8 };

describe('decimalTypeOf', () => {
  it('reads a K-line file’s top-level decimal columns', () => {
    expect(decimalTypeOf(datasetSchema('kline', NARROW))).toEqual(NARROW);
  });

  it('finds an order book’s decimals inside its levels, where they only are', () => {
    const depth = datasetSchema('depth', NARROW);
    expect(depth.fields.some((f) => DataType.isDecimal(f.type))).toBe(false);
    expect(decimalTypeOf(depth)).toEqual(NARROW);
  });

  it('gives the default type to a schema without decimals', () => {
    expect(decimalTypeOf(new Schema([new Field('n', new Int64())]))).toEqual(DEFAULT_DECIMAL);
  });
});
