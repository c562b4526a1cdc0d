/**
 * `quotelake quota --coordinator`: the daily counts Redis holds for every token that runs through
 * it (each process's charges summed), beside the quota files of this machine.
 */
import { DateTime } from 'luxon';
import type { RedisCoordinator } from '../api/redis/index.js';
import { n } from './progress/progress-figures.js';

export interface SharedQuotaEntry {
  readonly token: string;
  readonly tokenHash: string;
  readonly day: string;
  readonly timeZone: string | null;
  readonly usedToday: number;
  readonly unknownToday: number;
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly resetAt: string | null;
  /** Processes that charged requests on that day. */
  readonly processes: number;
}

/**
 * Today's count of each token: the day that is today in the count's quota zone. Redis also holds
 * the day before (kept past its midnight) and may hold the next (a process whose clock is ahead).
 */
export async function readSharedQuota(coordinator: RedisCoordinator, known: ReadonlyMap<string, string>, now: number): Promise<SharedQuotaEntry[]> {
  const counts = await coordinator.dayCounts();
  return counts
    .filter((c) => c.day === DateTime.fromMillis(now, { zone: c.timeZone ?? 'UTC' }).toISODate())
    .map((c) => ({
      token: known.get(c.tokenHash) ?? c.tokenHash,
      tokenHash: c.tokenHash,
      day: c.day,
      timeZone: c.timeZone,
      usedToday: c.used,
      unknownToday: c.unknown,
      limit: c.limit,
      remaining: c.limit === null ? null : Math.max(0, c.limit - c.used),
      resetAt: c.resetAt ? c.resetAt.toISOString() : null,
      processes: c.processes,
    }));
}

export function renderSharedQuota(target: string, entries: readonly SharedQuotaEntry[]): string {
  if (entries.length === 0) return `quotelake: no shared counts for today in ${target} (nothing sent through it today)`;
  const width = Math.max(5, ...entries.map((e) => e.token.length));
  const lines = [
    `quotelake: shared quota in ${target} (every process and host on the token)`,
    `  ${'token'.padEnd(width)}  ${'used today'.padStart(12)}  ${'limit'.padStart(10)}  ${'left'.padStart(10)}  ${'processes'.padStart(9)}  resets`,
  ];
  for (const e of entries) {
    const limit = e.limit === null ? 'none' : n(e.limit);
    const left = e.remaining === null ? '-' : n(e.remaining);
    const reset = e.resetAt ? `${e.resetAt} (${e.timeZone ?? 'UTC'} midnight)` : '-';
    lines.push(`  ${e.token.padEnd(width)}  ${n(e.usedToday).padStart(12)}  ${limit.padStart(10)}  ${left.padStart(10)}  ${String(e.processes).padStart(9)}  ${reset}`);
  }
  return lines.join('\n');
}
