/**
 * A table's own rule for cleaning its log, from its metaData `configuration` (Delta's table
 * properties, as Spark and delta-rs read them): `delta.enableExpiredLogCleanup` (default true)
 * says whether a writer cleans the log when it checkpoints, `delta.logRetentionDuration` (default
 * `interval 30 days`) how long a version stays readable. A value this reader cannot parse cleans
 * nothing: deleting by a misread retention could take versions the table means to keep.
 */
import { DEFAULT_LOG_RETENTION_MS } from './clean-delta-log.js';

export const ENABLE_EXPIRED_LOG_CLEANUP = 'delta.enableExpiredLogCleanup';
export const LOG_RETENTION_DURATION = 'delta.logRetentionDuration';

export type LogCleanupRule = { readonly clean: true; readonly retentionMs: number } | { readonly clean: false; readonly why: string };

const UNIT_MS: Readonly<Record<string, number>> = {
  week: 7 * 86_400_000,
  day: 86_400_000,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
  millisecond: 1,
  microsecond: 1e-3,
  nanosecond: 1e-6,
};

/**
 * Milliseconds of a Delta interval (`interval 30 days`, `interval 1 day 12 hours`, `7 days`), or
 * undefined. Months and years are refused, as Delta refuses them for this property (their length
 * varies); so are negative and fractional counts.
 */
export function parseDeltaInterval(text: string): number | undefined {
  const words = text.trim().toLowerCase().split(/\s+/);
  if (words[0] === 'interval') words.shift();
  if (words.length === 0 || words.length % 2 !== 0) return undefined;
  let ms = 0;
  for (let i = 0; i < words.length; i += 2) {
    const count = words[i]!;
    const unit = words[i + 1]!.replace(/s$/, '');
    if (!/^\d+$/.test(count) || UNIT_MS[unit] === undefined) return undefined;
    ms += Number(count) * UNIT_MS[unit];
  }
  return Number.isSafeInteger(Math.floor(ms)) ? Math.floor(ms) : undefined;
}

export function logCleanupRule(configuration: Readonly<Record<string, string | null | undefined>>): LogCleanupRule {
  const enabled = configuration[ENABLE_EXPIRED_LOG_CLEANUP];
  if (enabled !== undefined && enabled !== null) {
    const flag = enabled.trim().toLowerCase();
    if (flag === 'false') return { clean: false, why: `${ENABLE_EXPIRED_LOG_CLEANUP} is false` };
    if (flag !== 'true') return { clean: false, why: `${ENABLE_EXPIRED_LOG_CLEANUP} ${JSON.stringify(enabled)} is neither true nor false` };
  }
  const duration = configuration[LOG_RETENTION_DURATION];
  if (duration === undefined || duration === null) return { clean: true, retentionMs: DEFAULT_LOG_RETENTION_MS };
  const retentionMs = parseDeltaInterval(duration);
  if (retentionMs === undefined) return { clean: false, why: `${LOG_RETENTION_DURATION} ${JSON.stringify(duration)} is not an interval quotelake reads (e.g. "interval 30 days")` };
  return { clean: true, retentionMs };
}
