/**
 * R4: the same decimal value in another text. The forms a service may send: trailing zeros cut
 * ("12.50" → "12.5", "13.00" → "13", "0.00" → "0") or added ("12.50" → "12.50000", "7" → "7.0").
 * Never an exponent, never a leading `+`, never a leading zero added: the value stays exact.
 */

const PLAIN = /^\d+(?:\.\d+)?$/;

/** Trailing zeros of the fraction removed, and the point with them when nothing is left. */
export function trimmedForm(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

/** `extra` (1 or more) zeros appended to the fraction (a point added when there is none). */
export function paddedForm(text: string, extra: number): string {
  return (text.includes('.') ? text : `${text}.`) + '0'.repeat(Math.max(1, extra));
}

/**
 * Another form of a plain decimal text, chosen by `u` in [0, 1): trimmed, or padded with 1-4 zeros.
 * Anything that is not a plain non-negative decimal is returned unchanged.
 */
export function numberForm(text: string, u: number): string {
  if (!PLAIN.test(text)) return text;
  const trimmed = trimmedForm(text);
  // A value already in its shortest form is padded; otherwise trimmed half the time.
  if (u < 0.5 && trimmed !== text) return trimmed;
  return paddedForm(u < 0.5 ? text : trimmed, 1 + Math.floor(((u * 2) % 1) * 4));
}
