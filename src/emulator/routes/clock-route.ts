import * as z from 'zod';
import type { VirtualClock } from '../../core/clock.js';
import { isoFieldsValid } from '../../core/iso-calendar.js';
import { CLOCK_RANGE_TEXT, clockInBounds } from '../clock-bounds.js';
import type { Reply } from '../http/send.js';

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
/** One request moves the clock by at most 10 years either way. */
export const MAX_ADVANCE_MS = 10 * YEAR_MS;
export { CLOCK_MAX_MS, CLOCK_MIN_MS } from '../clock-bounds.js';

const USAGE = `body must be {"set": ISO instant between ${CLOCK_RANGE_TEXT}} or {"advanceMs": integer, |n| <= ${MAX_ADVANCE_MS}}`;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO instant with a zone whose day and time exist (Date.parse turns Feb 31 into Mar 3, T24:00 into the next day). */
function isIsoInstant(text: string): boolean {
  return ISO_INSTANT.test(text) && isoFieldsValid(text) && Number.isFinite(Date.parse(text));
}

const command = z.union([
  z.strictObject({ set: z.string().max(64).refine(isIsoInstant) }),
  z.strictObject({ advanceMs: z.number().int().min(-MAX_ADVANCE_MS).max(MAX_ADVANCE_MS) }),
]);

const state = (clock: VirtualClock): Reply => ({
  status: 200,
  body: { now: new Date(clock.now()).toISOString(), nowMs: clock.now() },
});

const refuse = (detail: string): Reply => ({ status: 400, body: { error: `${detail}: ${USAGE}` } });

/**
 * Admin clock (only when the emulator runs on a manual clock): GET reads it, POST `{"set": ISO}` or
 * `{"advanceMs": n}` moves it. Both answer `{now, nowMs}`; anything out of bounds is a 400 and
 * leaves the clock where it was.
 */
export function handleClock(method: string, body: string | undefined, clock: VirtualClock): Reply {
  if (method === 'GET') return state(clock);
  let doc: unknown;
  try {
    doc = JSON.parse(body ?? '');
  } catch {
    return refuse('not JSON');
  }
  const r = command.safeParse(doc);
  if (!r.success) return refuse('invalid');
  const target = 'set' in r.data ? Date.parse(r.data.set) : clock.now() + r.data.advanceMs;
  if (!Number.isFinite(target)) return refuse('not a valid instant');
  if (!clockInBounds(target)) return refuse(`${new Date(target).toISOString()} is out of bounds`);
  clock.set(target);
  return state(clock);
}
