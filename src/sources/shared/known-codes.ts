/**
 * The one check of product codes every source that takes codes runs at lint time, so a typo stops
 * the pipeline (exit 2, file:line:column or the --codes flag) before any request: the code must
 * be in the product catalog, exactly as spelled there (codes are case-sensitive, W11), or be
 * declared by the pipeline as outside the catalog (snapshot sources only; see codesOutsideCatalog).
 */
import * as z from 'zod';
import { findProduct, listProducts } from '../../catalog/index.js';
import type { LintFinding } from '../../core/definition.js';
import { quoteValue } from '../../core/field-failure.js';

/**
 * Letters and digits, optionally joined by single `.`, `_` or `-` (AAPL.US, 600000.SH, BTCUSDT):
 * refuses what cannot be a code at all (`..`, `.US`, blanks, `/`) before it reaches a URL.
 */
export const CODE_PATTERN = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

const NOT_A_CODE = 'is not a product code: letters and digits, optionally joined by single ".", "_" or "-" (e.g. AAPL.US)';

/**
 * Why `code` (refused by CODE_PATTERN) is no code, with the code meant when there is one: the same
 * "did you mean" as a typo gets, in the one message at its place (also when another problem of the
 * file keeps the catalog check from running). A code with blanks around it (`" EURUSD"`) is told
 * so and offered without them, even outside the catalog, where a snapshot source may declare it.
 */
function notACode(code: unknown): string {
  if (typeof code !== 'string') return NOT_A_CODE;
  const trimmed = code.trim();
  const padded = trimmed !== code && CODE_PATTERN.test(trimmed);
  const near = padded ? (findProduct(trimmed) !== undefined ? trimmed : (suggestCode(trimmed) ?? trimmed)) : suggestCode(code);
  const before = /^\s/.test(code);
  const after = /\s$/.test(code);
  const why = padded ? `is not a product code: ${before && after ? 'blanks before and after it' : `a blank ${before ? 'before' : 'after'} it`}` : NOT_A_CODE;
  return near === undefined ? why : `${why}; did you mean "${near}"?`;
}

export const codeSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(CODE_PATTERN, { error: (issue) => notACode(issue.input) });

/** Edit distance, cut short above `max` (only near misses are worth suggesting). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The catalog code the user most likely meant: the same letters in another case, the code with its
 * market suffix (`AAPL` → `AAPL.US`), or the one code within two edits (`BTCUSD` → `BTCUSDT`).
 */
export function suggestCode(code: string): string | undefined {
  const lower = code.toLowerCase();
  const products = listProducts();
  const sameLetters = products.find((p) => p.code.toLowerCase() === lower);
  if (sameLetters) return sameLetters.code;
  const bySuffix = products.filter((p) => p.code.toLowerCase().split('.')[0] === lower && p.code.includes('.'));
  if (bySuffix.length === 1) return bySuffix[0]!.code;
  let best: { code: string; d: number } | undefined;
  let tie = false;
  for (const p of products) {
    const d = distance(lower, p.code.toLowerCase(), 2);
    if (d > 2) continue;
    if (best === undefined || d < best.d) {
      best = { code: p.code, d };
      tie = false;
    } else if (d === best.d) tie = true;
  }
  return best && !tie ? best.code : undefined;
}

function unknownMessage(code: string): string {
  const near = suggestCode(code);
  return near !== undefined
    ? `unknown product code ${quoteValue(code)}; did you mean "${near}"?`
    : `unknown product code ${quoteValue(code)}: not in the product catalog (codes are case-sensitive)`;
}

/**
 * One finding per code of `codes` (at `path`) that is neither in the catalog nor in
 * `outsideCatalog`; plus, for `outsideCatalog` itself (at `outsidePath`), the codes that must not be
 * there: catalog codes, catalog codes in another case (a typo must not be waved through), and codes
 * missing from `codes` (only `codes` is requested, so such a code would silently never be).
 */
export function lintKnownCodes(
  codes: readonly string[],
  path: string,
  outsideCatalog: readonly string[] = [],
  outsidePath = 'codesOutsideCatalog',
): LintFinding[] {
  const out: LintFinding[] = [];
  const declared = new Set(outsideCatalog);
  const requested = new Set(codes);
  codes.forEach((code, i) => {
    if (findProduct(code) !== undefined || declared.has(code)) return;
    // Not a code at all: the schema has said so at this place, with the code meant (notACode).
    if (CODE_PATTERN.test(code)) out.push({ path: [path, i], message: unknownMessage(code) });
  });
  outsideCatalog.forEach((code, i) => {
    if (findProduct(code) !== undefined) {
      out.push({ path: [outsidePath, i], message: `${quoteValue(code)} is in the product catalog; list it in ${path} only` });
      return;
    }
    const same = listProducts().find((p) => p.code.toLowerCase() === code.toLowerCase());
    if (same) {
      out.push({ path: [outsidePath, i], message: `${quoteValue(code)} is the catalog's "${same.code}" in another case; codes are case-sensitive` });
      return;
    }
    if (!requested.has(code)) out.push({ path: [outsidePath, i], message: `${quoteValue(code)} is in ${outsidePath} but not in ${path}: add it to ${path} (or remove it here)` });
  });
  return out;
}
