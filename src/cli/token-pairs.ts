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
}

export function tokenPairs(text: string): TokenPair[] {
  return text
    .split(/[,\n\r]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return colon < 0 ? { token: entry, plan: '' } : { token: entry.slice(0, colon).trim(), plan: entry.slice(colon + 1).trim() };
    });
}
