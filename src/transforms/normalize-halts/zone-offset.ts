/**
 * A zone's UTC offset at an instant, as luxon's `IANAZone.offset` gives it, remembered per UTC hour.
 *
 * Why: `offset` formats the instant through `Intl.DateTimeFormat` (microseconds a call), and every
 * halt record resolves several local times, each probing the offset three or four times; the
 * records of a page fall in a few hours. An hour whose two ends have one offset has it throughout
 * (no time zone changes its offset twice within an hour); an hour with a change in it is never
 * remembered, each instant in it is asked of luxon.
 */
import type { IANAZone } from 'luxon';

const HOUR_MS = 3_600_000;
/** Hours remembered per zone before starting over (a zone's halts of ~50 years of trading hours). */
const MAX_HOURS = 100_000;
/** An hour with an offset change in it. */
const CHANGING = Number.NaN;

const hoursByZone = new WeakMap<IANAZone, Map<number, number>>();

/** Minutes east of UTC in force at `ms` in `zone`. */
export function zoneOffset(zone: IANAZone, ms: number): number {
  let hours = hoursByZone.get(zone);
  if (hours === undefined) {
    hours = new Map();
    hoursByZone.set(zone, hours);
  }
  const hour = Math.floor(ms / HOUR_MS);
  let offset = hours.get(hour);
  if (offset === undefined) {
    const start = zone.offset(hour * HOUR_MS);
    offset = start === zone.offset(hour * HOUR_MS + HOUR_MS - 1) ? start : CHANGING;
    if (hours.size >= MAX_HOURS) hours.clear();
    hours.set(hour, offset);
  }
  return Number.isNaN(offset) ? zone.offset(ms) : offset;
}
