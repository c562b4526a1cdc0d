/**
 * The secrets the environment holds before any command reads it: QUOTELAKE_TOKEN and the tokens of
 * QUOTELAKE_TOKENS. Every terminal masks them from its first line, whatever the command, so a
 * command that never reads a token (validate loading a pipeline module, list, inspect) cannot echo
 * one either.
 *
 * Read loosely, and without the pool's validation (token-list.ts loads zod, which the start-up of
 * every command must not): masking more than the tokens is harmless, so a value that does not
 * parse is masked whole, and the command that uses it reports the problem.
 */
import { tokenPairs } from './token-pairs.js';

export function envSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const single = env.QUOTELAKE_TOKEN?.trim();
  if (single) out.push(single);
  const list = env.QUOTELAKE_TOKENS?.trim();
  if (list) out.push(...poolSecrets(list));
  return out;
}

/** The tokens of `token:plan,...` or of the JSON list `[{"token": "..."}]`; the whole text when it is neither. */
function poolSecrets(text: string): string[] {
  if (text.startsWith('[')) {
    try {
      const entries = JSON.parse(text) as unknown;
      if (Array.isArray(entries)) {
        const tokens = entries.map((e: unknown) => (e !== null && typeof e === 'object' ? (e as { token?: unknown }).token : undefined));
        const found = tokens.filter((t): t is string => typeof t === 'string' && t.trim() !== '').map((t) => t.trim());
        if (found.length === tokens.length) return found;
      }
    } catch {
      // not JSON: masked whole below
    }
    return [text];
  }
  return tokenPairs(text)
    .map((pair) => pair.token)
    .filter((t) => t !== '');
}
