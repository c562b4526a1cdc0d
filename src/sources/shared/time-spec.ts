/**
 * `since` / `until` as a pipeline writes them: an ISO date or date-time (UTC unless it names an
 * offset), or a span back from now such as `90d`, `12h`, `2w`, `30m`, so a shipped pipeline does
 * not go stale.
 */
import * as z from 'zod';
import { isoUtcMs } from '../../core/iso-calendar.js';

const RELATIVE = /^(\d+)\s*(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

const NOT_A_TIME = 'must be an ISO date or date-time that exists (e.g. 2026-01-01, 2026-01-01T09:30:00Z) or a span back from now (e.g. 90d, 12h, 2w)';

/** Days a year or a month of a span stands for, in the words that say how to write it. */
const LONG_UNITS: Readonly<Record<string, { days: number; name: string }>> = {
  y: { days: 365, name: 'years' },
  mo: { days: 30, name: 'months' },
};

/**
 * Why text that looks like a span (a number and a unit) is none: `1y`, `6mo` and `90D` got only the
 * generic words, which name no unit, so a span in years or months had no way in.
 */
export function spanProblem(text: string): string | undefined {
  const m = /^(\d+)\s*([A-Za-z]+)$/.exec(text.trim());
  if (m === null) return undefined;
  const [, count, unit] = m as unknown as [string, string, string];
  const units = 'a span back from now is a whole number of m (minutes), h (hours), d (days) or w (weeks)';
  const lower = unit.toLowerCase();
  // An upper-case M is a month in many tools, and m a minute here: both said, never one guessed.
  if (unit === 'M') return `is no span: ${units}; ${count}m would be ${count} minutes; for months write days, e.g. ${Number(count) * 30}d`;
  if (lower in UNIT_MS) return `is no span: ${units}, in lower case; write ${count}${lower}`;
  const long = LONG_UNITS[lower.replace(/^(y|mo).*$/, '$1')];
  if (long !== undefined) return `is no span: ${units}; for ${long.name} write days, e.g. ${Number(count) * long.days}d`;
  return `is no span: ${units} (e.g. 90d)`;
}

export const timeSpecSchema = z.string().superRefine((text, ctx) => {
  // A span resolves to a number at any instant, so 0 stands for now.
  if (Number.isFinite(timeSpecMs(text, 0))) return;
  ctx.addIssue({ code: 'custom', message: spanProblem(text) ?? NOT_A_TIME });
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
