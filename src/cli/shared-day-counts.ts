/**
 * What a coordinator's Redis holds of each token's day, for `plan` and `run --dry-run`: with a
 * coordinator a run charges its requests there, not to the state dir's quota file, so a plan that
 * read only the file would promise a day the other processes have already spent.
 */
import { connectRedisCoordinator } from '../api/connect-redis-coordinator.js';
import type { SharedDayCount } from '../api/redis/index.js';

/** Each token's count by `<tokenHash>/<day>`; fails as a run would (QL_COORDINATOR_DOWN, QL_COORDINATOR_REFUSED). */
export async function readSharedDayCounts(url: string): Promise<ReadonlyMap<string, SharedDayCount>> {
  const coordinator = await connectRedisCoordinator(url);
  try {
    const counts = await coordinator.dayCounts();
    return new Map(counts.map((c) => [sharedDayKey(c.tokenHash, c.day), c]));
  } finally {
    await coordinator.close().catch(() => undefined);
  }
}

export function sharedDayKey(tokenHash: string, day: string): string {
  return `${tokenHash}/${day}`;
}
