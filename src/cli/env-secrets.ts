/**
 * The secrets the environment holds before any command reads it: QUOTELAKE_TOKEN and the tokens of
 * QUOTELAKE_TOKENS. Every terminal masks them from its first line, whatever the command, so a
 * command that never reads a token (validate loading a pipeline module, list, inspect) cannot echo
 * one either. A QUOTELAKE_TOKENS that does not parse is still masked whole; the command that uses
 * it reports the problem.
 */
import { parseTokenList } from './token-list.js';

export function envSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const single = env.QUOTELAKE_TOKEN?.trim();
  if (single) out.push(single);
  const list = env.QUOTELAKE_TOKENS?.trim();
  if (list) {
    try {
      out.push(...parseTokenList(list).map((t) => t.token));
    } catch {
      out.push(list);
    }
  }
  return out;
}
