/**
 * A slice runs to an instant the enqueuer's clock had reached. A worker whose clock has not reached
 * it would fetch up to its own "now" only (an `until` still to come is now), and the slice, marked
 * done, would keep the rest of its range out of the lake and, its id being its range, out of the
 * queue for good. The worker's clock is then the one at fault (or the enqueuer's): nothing runs.
 */
import type { Slice } from '../../queue/slice.js';
import { FUTURE_SKEW_MS } from '../../sources/shared/kline-records.js';
import { UsageError } from '../usage-error.js';

/** To the second: a clock's milliseconds say nothing here. */
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Throws when the slice ends past `nowMs`, beyond the skew allowed a service's clock. */
export function checkSliceClock(slice: Pick<Slice, 'codes' | 'interval' | 'partition' | 'untilMs'>, nowMs: number): void {
  if (slice.untilMs <= nowMs + FUTURE_SKEW_MS) return;
  throw new UsageError(
    `the slice ${slice.codes.join(',')} ${slice.interval} ${slice.partition} runs to ${iso(slice.untilMs)}, after this worker's clock (${iso(nowMs)}): run now, it would stop at that clock's now and be marked done, the rest of its range never fetched; nothing was fetched or written`,
    `give the worker the same --clock (or QUOTELAKE_CLOCK) as enqueue, none for both, or set this host's clock right (against the emulator: its current instant); the clocks of enqueue and of every worker must agree`,
  );
}
