/**
 * The label that names a token in metrics: the first 16 hex digits of its SHA-256, the same name
 * its quota file carries (`<state>/quota/<hash16>.json`), so an operator can match the two. The
 * token itself never reaches a label, a scrape or a textfile.
 */
import { createHash } from 'node:crypto';

/** A token given as itself (hashed here, never kept) or as the hash its caller already holds. */
export type TokenRef = { readonly token: string } | { readonly hash: string };

const HASH16 = /^[0-9a-f]{16}$/;

export function tokenLabel(ref: TokenRef): string {
  if ('token' in ref) return createHash('sha256').update(ref.token, 'utf8').digest('hex').slice(0, 16);
  // Anything else under `hash` could be a token passed by mistake: refuse it rather than publish it.
  if (!HASH16.test(ref.hash)) throw new RangeError('a token hash is 16 lowercase hex digits (tokenHash16); pass { token } to have it hashed');
  return ref.hash;
}
