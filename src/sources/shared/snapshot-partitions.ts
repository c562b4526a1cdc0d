/**
 * The partition folders a depth or trade snapshot writes: rows go by the UTC date of their tick
 * time, and a market that is closed answers with its last trade or book of the last session (a US
 * stock asked on a Friday morning, UTC, is Thursday's), so the folders are found from each
 * product's sessions, never from the clock's date alone.
 */
import { findProduct } from '../../catalog/index.js';
import { lastWindowAtOrBefore, nextSessionChange } from '../../catalog/sessions.js';
import { partitionSegment } from '../../core/partition-value.js';
import { utcDate } from '../../core/time.js';

const DAY_MS = 86_400_000;

/** Folders of every code's tick at each round start (ms, absolute, ascending), sorted. */
export function snapshotPartitions(codes: readonly string[], roundStartsMs: readonly number[]): string[] {
  const dates = new Set<string>();
  for (const code of new Set(codes)) {
    const session = findProduct(code)?.session;
    let sameUntil = Number.NEGATIVE_INFINITY;
    for (const at of roundStartsMs) {
      // The tick's date holds until the session opens or closes, or the UTC day ends.
      if (at < sameUntil) continue;
      const nextDay = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
      if (session === undefined) {
        // A code outside the catalog: its session is unknown, so the round's own date.
        dates.add(utcDate(at));
        sameUntil = nextDay;
        continue;
      }
      const window = lastWindowAtOrBefore(session, at);
      dates.add(utcDate(window === null ? at : Math.min(window.end - 1, at)));
      sameUntil = Math.min(nextDay, nextSessionChange(session, at) ?? nextDay);
    }
  }
  return [...dates].sort().map((d) => partitionSegment('date', d));
}
