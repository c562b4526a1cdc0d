/** The sink's decimal check: its one-scan fast path never lets through what the full parse refuses. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalDecimal } from '../../src/core/decimal.js';
import { isFieldFailure } from '../../src/core/field-failure.js';
import { decimalMisfit } from '../../src/lake/columns/decimal-misfit.js';

const type = fc.integer({ min: 1, max: 38 }).chain((precision) => fc.record({ precision: fc.constant(precision), scale: fc.integer({ min: 0, max: precision }) }));
const text = fc.oneof(
  fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,40}$/), fc.option(fc.stringMatching(/^[0-9]{0,40}$/), { nil: undefined })).map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`),
  fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' '), maxLength: 12 }),
);

describe('decimalMisfit', () => {
  it('property: refuses exactly what canonicalDecimal refuses for the sink type', () => {
    fc.assert(
      fc.property(text, type, (t, ty) => {
        const refused = decimalMisfit({}, 's', 'price', t, ty) !== undefined;
        expect(refused).toBe(isFieldFailure(canonicalDecimal(t, ty)));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });
});
