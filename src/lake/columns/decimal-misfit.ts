/**
 * The sink's own check of every decimal against the physical DECIMAL(p,s) it is written as. A row
 * arrives validated against whatever type parse-decimals was given, which may be wider than the
 * sink's: without this check a value with too many digits was written anyway (INT64 kept its low
 * words, so it wrapped). A value that does not fit makes its row a rejected record, never a
 * rounding or a wrap.
 */
import { RowWithWords } from '../../core/carried-words.js';
import type { Rejected } from '../../core/component.js';
import { canonicalDecimal, DECIMAL_OVERFLOW, type DecimalType } from '../../core/decimal.js';
import { isFieldFailure } from '../../core/field-failure.js';

/** The first decimal field of a row that does not fit, as a rejected record; undefined when all fit. */
export type DecimalCheck<R> = (row: R, stream: string) => Rejected<R> | undefined;

/**
 * Whether a plain decimal text (`[-]digits[.digits]`) fits DECIMAL(p,s), in one scan with no
 * allocation: leading zeros of the integer part and trailing zeros of the fraction do not count.
 * Anything else (a sign elsewhere, a letter) answers false, and the full parse names the problem.
 */
function plainTextFits(value: string, type: DecimalType): boolean {
  const n = value.length;
  let i = n > 0 && value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  let intDigits = 0;
  let fracDigits = 0;
  let intSeen = false;
  let fracSeen = false;
  let inFraction = false;
  let fractionZeros = 0;
  for (; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 46 /* . */ && !inFraction) {
      inFraction = true;
      continue;
    }
    if (c < 48 || c > 57) return false;
    if (inFraction) {
      fracSeen = true;
      fracDigits++;
      fractionZeros = c === 48 ? fractionZeros + 1 : 0;
    } else {
      intSeen = true;
      if (intDigits > 0 || c !== 48) intDigits++;
    }
  }
  return intSeen && (!inFraction || fracSeen) && intDigits <= type.precision - type.scale && fracDigits - fractionZeros <= type.scale;
}

/** A field that does not fit: the code, field and value, and why (as parse-decimals words it). */
export function decimalMisfit<R>(row: R, stream: string, field: string, value: string | null | undefined, type: DecimalType): Rejected<R> | undefined {
  if (value == null) return undefined;
  // The hot path: rows come from parse-decimals as plain texts, almost all of which fit.
  if (plainTextFits(value, type)) return undefined;
  const checked = canonicalDecimal(value, type);
  if (!isFieldFailure(checked)) return undefined;
  // The sink refuses only values that are numbers but too wide; anything else is a bug upstream.
  const code = checked.code === DECIMAL_OVERFLOW ? DECIMAL_OVERFLOW : checked.code;
  return { record: row, stream, code, field, value, reason: `${code}: field ${field}: ${checked.reason} (the sink's decimal type)` };
}

/** A check of the named decimal fields of a flat row. */
export function flatDecimalCheck<R>(fields: readonly (keyof R & string)[], type: DecimalType): DecimalCheck<R> {
  return (row, stream) => {
    // Rows that carry their words (in `fields` order) at the sink's scale are checked on them.
    if (RowWithWords.allWordsFit(row as object, fields.length, type.scale, type.precision)) return undefined;
    for (const field of fields) {
      const bad = decimalMisfit(row, stream, field, row[field] as string | null | undefined, type);
      if (bad) return bad;
    }
    return undefined;
  };
}
