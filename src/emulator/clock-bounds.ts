/**
 * The emulator clock stays within 1970-01-01 .. 2100-01-01: the synthetic market is generated from
 * the clock, so an instant far outside (e.g. after `advanceMs: 1e300`) would keep the emulator busy
 * forever, and one before 1970 would stamp ticks and halts with negative or pre-epoch times.
 */
export const CLOCK_MIN_MS = Date.UTC(1970, 0, 1);
export const CLOCK_MAX_MS = Date.UTC(2100, 0, 1);

export const CLOCK_RANGE_TEXT = '1970-01-01 and 2100-01-01';

export function clockInBounds(ms: number): boolean {
  return ms >= CLOCK_MIN_MS && ms <= CLOCK_MAX_MS;
}
