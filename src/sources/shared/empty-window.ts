/**
 * Why a K-line pipeline's window holds nothing yet: `since` still to come, or `until` before
 * `since` (both bounds are inclusive: equal, they hold the bar that opens then). Said by a run that
 * sent no request, a plan of none and an enqueue that cut no slice, so none of them is a silent "0".
 */
import { timeSpecMs } from './time-spec.js';

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

function safeTime(text: unknown, nowMs: number): number | undefined {
  if (typeof text !== 'string') return undefined;
  const ms = timeSpecMs(text, nowMs);
  return Number.isFinite(ms) ? ms : undefined;
}

export interface EmptyWindow {
  /** True when the window begins later: a run at a later time may find something. */
  readonly notYet: boolean;
  /** `since (…) is in the future (now …)` or `until (…) is before since (…)`. */
  readonly reason: string;
}

export function emptyWindow(source: { readonly since?: unknown; readonly until?: unknown }, nowMs: number): EmptyWindow | undefined {
  const since = safeTime(source.since, nowMs);
  const until = safeTime(source.until, nowMs);
  if (since !== undefined && since > nowMs) return { notYet: true, reason: `since (${String(source.since)} = ${iso(since)}) is in the future (now ${iso(nowMs)})` };
  if (since !== undefined && until !== undefined && until < since) return { notYet: false, reason: `until (${iso(until)}) is before since (${iso(since)})` };
  return undefined;
}
