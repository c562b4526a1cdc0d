/**
 * The token pool as written in QUOTELAKE_TOKENS (or as the entries of a tokens file), checked
 * without ever quoting a token back: a message names the entry by its position and where it came
 * from, never its text.
 *
 * Two forms, so any token can be written:
 * - `token:plan,token:plan`: entries split on commas and line breaks, each split at its LAST colon
 *   (plan names have none), so a token may hold colons, `=`, `/`, `%` or `+` as they are.
 * - JSON, when the value starts with `[`: `[{"token": "...", "plan": "premium"}, ...]`, for tokens
 *   with commas, blanks or anything else; a tokens file takes the same list in YAML.
 */
import * as z from 'zod';
import type { PoolToken } from '../api/index.js';
import { tokenPairs } from './token-pairs.js';
import { UsageError } from './usage-error.js';

// Trimmed like QUOTELAKE_TOKEN; a token of blanks only is no token (and would mask every blank of every message).
const entrySchema = z.strictObject({ token: z.string().trim().min(1), plan: z.string().min(1) });

/** Which entry, counted from 1, of which source (`QUOTELAKE_TOKENS`, a file's path). */
function entryName(where: string, i: number, count: number): string {
  return `${where}: entry ${i + 1} of ${count}`;
}

/** What a parsed value is, in words: the kind only, never the value (it may be a token). */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/**
 * Why an entry is not {token, plan}: its kind when it is no mapping (`- token abc`, the colon left
 * out, is a YAML string), else the key that is missing, empty or of another kind.
 */
function entryProblem(entry: unknown, issue: z.core.$ZodIssue | undefined): string {
  if (kindOf(entry) !== 'a mapping') return ` is ${kindOf(entry)}, not a {token, plan} mapping`;
  if (issue?.code === 'unrecognized_keys') return `: unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')} (each entry is {token, plan})`;
  const key = issue?.path[0];
  if (key === undefined) return ': not a {token, plan} mapping';
  const value = (entry as Record<string, unknown>)[String(key)];
  if (value === undefined) return `: "${String(key)}" is missing`;
  return typeof value === 'string' ? `: "${String(key)}" is empty` : `: "${String(key)}" is ${kindOf(value)}, not a string`;
}

/** Entries of the JSON or YAML form, already parsed: `[{token, plan}, ...]`. */
export function tokensFromList(raw: unknown, where: string, hint: string): PoolToken[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    const what = Array.isArray(raw) ? 'the list is empty: give at least one {token, plan} entry' : 'expected a list of {token, plan} entries';
    throw new UsageError(`${where}: ${what}`, hint);
  }
  return raw.map((entry: unknown, i) => {
    const parsed = entrySchema.safeParse(entry);
    // The kind of problem and the key only: a value here may be a token.
    if (!parsed.success) throw new UsageError(`${entryName(where, i, raw.length)}${entryProblem(entry, parsed.error.issues[0])}`, hint);
    return { token: parsed.data.token, plan: parsed.data.plan.trim() };
  });
}

/** QUOTELAKE_TOKENS: `token:plan,...`, or the JSON list. */
export function parseTokenList(text: string, where = 'QUOTELAKE_TOKENS'): PoolToken[] {
  const hint = 'write token:plan pairs separated by commas (QUOTELAKE_TOKENS=tokenA:professional,tokenB:premium), a JSON list [{"token":"…","plan":"…"}] for tokens with commas or blanks, or use --tokens-file';
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let raw: unknown;
    try {
      raw = JSON.parse(trimmed);
    } catch {
      // JSON's own message quotes the text around the error: a token could be in it.
      throw new UsageError(`${where}: starts with "[" but is not valid JSON`, hint);
    }
    return tokensFromList(raw, where, hint);
  }
  const pairs = tokenPairs(trimmed);
  if (pairs.length === 0) throw new UsageError(`${where} is set but lists no token`, hint);
  return pairs.map(({ token, plan, empty }, i) => {
    if (empty) throw new UsageError(`${entryName(where, i, pairs.length)} is empty (nothing between two commas, or a comma at an end: an unset variable?)`, hint);
    if (token === '' || plan === '') throw new UsageError(`${entryName(where, i, pairs.length)} is not token:plan`, hint);
    return { token, plan };
  });
}
