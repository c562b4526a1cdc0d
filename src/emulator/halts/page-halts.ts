import type { WireHaltRecord } from '../contracts.js';

export const HALT_PAGE_SIZE_MIN = 1;
export const HALT_PAGE_SIZE_MAX = 500;

/** What a paginated suspension envelope carries besides `success` and `timestamp` (S1, spec 2.4). */
export interface HaltPage {
  data: WireHaltRecord[];
  totalCount: number;
  totalPages: number;
  currentPage: number;
  /** Records on this page: `size` except on the last page, 0 past the end. */
  currentSize: number;
}

/** Paging parameters are the caller's fault, not ours: the HTTP layer answers 500 `{success:false, error}` (S1, S5). */
export type HaltPageResult = { ok: true; page: HaltPage } | { ok: false; error: string };

export type HaltPagingResult =
  | { ok: true; paging: { page: number; size: number } | null }
  | { ok: false; error: string };

/**
 * Cuts one page from the full, newest-first list (S1): `page` is 1-based, `size` 1..500.
 * A page past the end is empty but still carries the true totals.
 */
export function pageHalts(records: readonly WireHaltRecord[], page: number, size: number): HaltPageResult {
  if (!Number.isSafeInteger(page) || page < 1) {
    return { ok: false, error: `invalid page: ${String(page)} (must be an integer >= 1)` };
  }
  if (!Number.isSafeInteger(size) || size < HALT_PAGE_SIZE_MIN || size > HALT_PAGE_SIZE_MAX) {
    return {
      ok: false,
      error: `invalid size: ${String(size)} (must be an integer ${HALT_PAGE_SIZE_MIN}..${HALT_PAGE_SIZE_MAX})`,
    };
  }
  const start = (page - 1) * size;
  const data = start >= records.length ? [] : records.slice(start, start + size);
  return {
    ok: true,
    page: {
      data,
      totalCount: records.length,
      totalPages: Math.ceil(records.length / size),
      currentPage: page,
      currentSize: data.length,
    },
  };
}

/**
 * Reads `page` and `size` from a query string (URLSearchParams.get gives string | null).
 * Both absent: the whole year, unpaged (`paging: null`). Both present: validated numbers.
 * Only one of them, an empty value, or anything not a plain decimal integer in range: an error.
 */
export function parseHaltPaging(page: string | null | undefined, size: string | null | undefined): HaltPagingResult {
  const hasPage = page !== null && page !== undefined;
  const hasSize = size !== null && size !== undefined;
  if (!hasPage && !hasSize) return { ok: true, paging: null };
  if (!hasPage || !hasSize) {
    return { ok: false, error: `page and size must be given together (page=${show(page)}, size=${show(size)})` };
  }
  const p = parseInteger(page);
  if (p === undefined || p < 1) return { ok: false, error: `invalid page: ${show(page)} (must be an integer >= 1)` };
  // Any page up to 2^53 - 1 is past the end or not: an empty page with the true totals, not an error.
  if (p > Number.MAX_SAFE_INTEGER) return { ok: false, error: `invalid page: ${show(page)} (must be at most ${Number.MAX_SAFE_INTEGER})` };
  const s = parseInteger(size);
  if (s === undefined || s < HALT_PAGE_SIZE_MIN || s > HALT_PAGE_SIZE_MAX) {
    return {
      ok: false,
      error: `invalid size: ${show(size)} (must be an integer ${HALT_PAGE_SIZE_MIN}..${HALT_PAGE_SIZE_MAX})`,
    };
  }
  return { ok: true, paging: { page: p, size: s } };
}

/** A plain decimal integer (leading zeros allowed); one past 2^53 - 1 comes back as Infinity. */
function parseInteger(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(n);
}

function show(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'absent';
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
