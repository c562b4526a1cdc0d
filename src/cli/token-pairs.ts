/**
 * The `token:plan,token:plan` form of a token pool (QUOTELAKE_TOKENS) split into entries: commas or
 * line breaks between them, each split at its LAST colon (plan names have none, so a token may hold
 * colons); an entry without a colon is all token. No check beyond the split and no zod, so the
 * terminal masks the tokens at start-up (env-secrets.ts) and the pool refuses what is wrong
 * (token-list.ts) from the one reading.
 */
export interface TokenPair {
  readonly token: string;
  /** '' when the entry names none. */
  readonly plan: string;
  /** Nothing between two commas or beside an end comma (`a:free,,b:free`): often an unset variable. */
  readonly empty?: true;
}

/**
 * Line breaks and blank lines are layout; commas are not: an empty entry between two commas, or
 * before a comma that starts the text or after one that ends it, is kept as `empty` for the pool to
 * refuse (`"$A,$B,$C"` with B unset must not run a pool of two in silence). A comma that ends a line
 * followed by more lines (`a:free,` newline `b:free`) is only a separator.
 */
export function tokenPairs(text: string): TokenPair[] {
  const lines = text
    .split(/[\n\r]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.flatMap((line, i) => {
    const entries = line.split(',').map((entry) => entry.trim());
    if (i < lines.length - 1 && entries.length > 1 && entries[entries.length - 1] === '') entries.pop();
    return entries.map((entry): TokenPair => {
      if (entry === '') return { token: '', plan: '', empty: true };
      const colon = entry.lastIndexOf(':');
      return colon < 0 ? { token: entry, plan: '' } : { token: entry.slice(0, colon).trim(), plan: entry.slice(colon + 1).trim() };
    });
  });
}
