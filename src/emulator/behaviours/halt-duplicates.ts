import type { WireHaltRecord } from '../contracts.js';
import { draw, TAG } from './draw.js';

/**
 * R6: the same halt record twice. A page p > 1 starts with the last record of page p-1 (as when a
 * record is published between two page requests); an unpaged answer carries one record twice in a
 * row. `totalCount` stays the number of distinct records; `currentSize` counts what the page holds.
 * `key` identifies the answer (exchange, page, size, second) for the seeded draw.
 */
export function withHaltDuplicates(
  all: readonly WireHaltRecord[],
  data: WireHaltRecord[],
  paging: { page: number; size: number } | null,
  seed: number,
  rate: number,
  key: readonly number[],
): WireHaltRecord[] {
  if (rate <= 0 || data.length === 0 || draw(seed, TAG.haltDuplicate, ...key) >= rate) return data;
  if (paging !== null) {
    const before = (paging.page - 1) * paging.size - 1;
    return before >= 0 && before < all.length ? [all[before]!, ...data] : data;
  }
  const at = Math.floor(draw(seed, TAG.haltDuplicateAt, ...key) * data.length);
  return [...data.slice(0, at + 1), data[at]!, ...data.slice(at + 1)];
}
