/**
 * What is wrong with a token that is no usable text, said by its kind only: the value itself is a
 * secret (a token of digits given as a number is still the token). "is empty" for a number misled.
 */
export function tokenProblem(token: unknown): string {
  if (token === undefined) return 'is missing';
  if (token === '') return 'is empty';
  if (token === null) return 'is null, not a string';
  if (Array.isArray(token)) return 'is a list, not a string (one client takes one token; createTokenPool takes several)';
  // The kind alone: `String(token)` would print the secret.
  return `is a ${typeof token}, not a string${typeof token === 'number' || typeof token === 'bigint' ? ' (give it as text, in quotes)' : ''}`;
}
