/**
 * What is wrong with a token that is no usable text, said by its kind only: the value itself is a
 * secret (a token of digits given as a number is still the token). "is empty" for a number misled.
 */
export function tokenProblem(token: unknown): string {
  if (token === undefined) return 'is missing';
  if (token === '') return 'is empty';
  if (typeof token === 'string' && token.trim() === '') return 'is blank (only whitespace)';
  if (token === null) return 'is null, not a string';
  if (Array.isArray(token)) return 'is a list, not a string (one client takes one token; createTokenPool takes several)';
  // The kind alone: `String(token)` would print the secret.
  return `is a ${typeof token}, not a string${typeof token === 'number' || typeof token === 'bigint' ? ' (give it as text, in quotes)' : ''}`;
}

/**
 * The token as the service knows it, or undefined when there is none to send. Whitespace at either
 * end (a file's trailing newline, `$(cat file)`) is no part of a token: the command line trims its
 * token and a tokens file's entries, and a library caller gets the same, not a refusal at the service.
 */
export function usableToken(token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  const text = token.trim();
  return text === '' ? undefined : text;
}
