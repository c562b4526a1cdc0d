/**
 * `since` / `until` as a pipeline writes them: an ISO date or date-time (UTC unless it names an
 * offset), or a span back from now such as `90d`, `12h`, `2w`, `30m`, so a shipped pipeline does
 * not go stale.
 */
import * as z from 'zod';
import { isoUtcMs } from '../../core/iso-calendar.js';

const RELATIVE = /^(\d+)\s*(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

export const timeSpecSchema = z
  .string()
  // A span resolves to a number at any instant, so 0 stands for now.
  .refine((text) => Number.isFinite(timeSpecMs(text, 0)), {
    message: 'must be an ISO date or date-time that exists (e.g. 2026-01-01, 2026-01-01T09:30:00Z) or a span back from now (e.g. 90d, 12h, 2w)',
  });

/** True for a span back from now (`90d`), false for a date or date-time. */
export function isTimeSpan(text: string): boolean {
  return RELATIVE.test(text.trim());
}

/** The instant (UTC ms) a time spec stands for at `nowMs`; NaN for text that is not one. */
export function timeSpecMs(text: string, nowMs: number): number {
  const t = text.trim();
  const rel = RELATIVE.exec(t);
  return rel ? nowMs - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS] : isoUtcMs(t);
}

/** The instant (UTC ms) a time spec stands for at `nowMs`; the spec has passed timeSpecSchema. */
export function resolveTimeSpec(text: string, nowMs: number): number {
  const ms = timeSpecMs(text, nowMs);
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${text}`);
  return ms;
}
