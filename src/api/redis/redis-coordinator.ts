/**
 * The Redis coordinator: one connection shared by every client of a command (each token gets its
 * own keys), and the shared counts for `quotelake quota`.
 */
import type { Admission, AdmissionContext, Coordinator } from '../admission.js';
import { DAY_KEY_PATTERN, parseDayKey, tokenKeys } from './redis-keys.js';
import { RedisLimiter } from './redis-limiter.js';
import { RedisLink, type RedisLinkOptions } from './redis-link.js';
import { RedisQuota } from './redis-quota.js';

/** One token's count of one day as Redis holds it. */
export interface SharedDayCount {
  readonly tokenHash: string;
  readonly day: string;
  readonly used: number;
  readonly unknown: number;
  /** The daily limit and zone the first admission of the day wrote (null if it did not). */
  readonly limit: number | null;
  readonly timeZone: string | null;
  readonly resetAt: Date | null;
  /** Processes that charged requests that day (fields `p:*`). */
  readonly processes: number;
}

export class RedisCoordinator implements Coordinator {
  readonly target: string;

  private constructor(private readonly link: RedisLink) {
    this.target = link.target;
  }

  /** Connects and checks Redis: CoordinatorDownError when it is not there. */
  static async connect(url: string, options?: RedisLinkOptions): Promise<RedisCoordinator> {
    const link = new RedisLink(url, options);
    try {
      await link.open();
    } catch (error) {
      await link.close();
      throw error;
    }
    return new RedisCoordinator(link);
  }

  admission(context: AdmissionContext): Admission {
    const keys = tokenKeys(context.tokenHash);
    const quota = new RedisQuota(this.link, keys, context);
    const limiter = new RedisLimiter(this.link, keys, quota, context);
    quota.onClose = limiter.unlisten;
    return { limiter, quota };
  }

  /** Every day count Redis holds (today's and, for a day after, yesterday's), oldest day first. */
  async dayCounts(): Promise<SharedDayCount[]> {
    const out: SharedDayCount[] = [];
    for (const key of await this.link.scan(DAY_KEY_PATTERN)) {
      const parsed = parseDayKey(key);
      if (!parsed) continue;
      const hash = await this.link.hgetall(key);
      const reset = Number(hash.resetAt);
      out.push({
        ...parsed,
        used: Number(hash.used ?? 0),
        unknown: Number(hash.unknown ?? 0),
        limit: hash.limit !== undefined && Number(hash.limit) >= 0 ? Number(hash.limit) : null,
        timeZone: hash.zone ?? null,
        resetAt: Number.isFinite(reset) && reset > 0 ? new Date(reset) : null,
        processes: Object.keys(hash).filter((f) => f.startsWith('p:')).length,
      });
    }
    return out.sort((a, b) => a.day.localeCompare(b.day) || a.tokenHash.localeCompare(b.tokenHash));
  }

  close(): Promise<void> {
    return this.link.close();
  }
}
