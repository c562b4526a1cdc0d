/**
 * Which path prefix serves a code (W11): the stock family (`/quote-stock-b-api`) or the non-stock
 * family (`/quote-b-api`). The catalog decides; a pipeline may override single codes.
 */
import type { Family } from '../catalog/types.js';

export type { Family };

/** Looks a code up (normally in the product catalog); `undefined` when the code is unknown. */
export type FamilyLookup = (code: string) => Family | undefined;

const STOCK_SUFFIXES = ['.US', '.HK', '.SH', '.SZ'];

/** W11's rule for codes the catalog does not know: exchange-suffixed codes are stocks. */
export function familyBySuffix(code: string): Family {
  return STOCK_SUFFIXES.some((suffix) => code.endsWith(suffix)) ? 'stock' : 'non-stock';
}

export function familyPrefix(family: Family): string {
  return family === 'stock' ? '/quote-stock-b-api' : '/quote-b-api';
}

/** Override first, then the lookup, then the suffix rule. */
export function createFamilyResolver(
  lookup: FamilyLookup | undefined,
  overrides: Readonly<Record<string, Family>> = {},
): (code: string) => Family {
  return (code) => {
    if (Object.hasOwn(overrides, code)) return overrides[code]!;
    return lookup?.(code) ?? familyBySuffix(code);
  };
}
