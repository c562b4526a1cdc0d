/** What reading one K-line series needs, and what its two ways of reading (walk, newest bars) share. */
import type { ServiceClient } from '../../api/index.js';
import type { Product } from '../../catalog/index.js';
import type { RunContext } from '../../core/component.js';
import type { QuotaExhaustedError } from '../../core/errors.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import type { Interval } from '../../core/records.js';
import type { RequestReporter } from '../shared/request-reporter.js';

/**
 * More asks when an answer is short (R1) and leaves the question open: a stock's newest bars, or a
 * walk's page whose bars all lie above its end (R2: a service whose end reaches further).
 */
export const SHORT_PAGE_RETRIES = 3;

export interface SeriesEnv {
  readonly client: ServiceClient;
  readonly reporter: RequestReporter;
  readonly ctx: RunContext;
  readonly product: Product;
  readonly interval: Interval;
  /** Oldest bar open wanted (ms). */
  readonly sinceMs: number;
  /** Newest bar open wanted (ms), or null for "up to now". */
  readonly untilMs: number | null;
  /** Shared by the series of one run: once the day's quota is gone, every series stops cleanly. */
  readonly quota: { exhausted: QuotaExhaustedError | null };
  /** Pages of a backward walk in flight at once (1 = strictly one after another). */
  readonly prefetchPages: number;
}

/** A Unix-seconds instant as ISO text without the milliseconds it never has. */
export const isoSeconds = (sec: number) => new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

/** A series stopped by an answer for another one: less was delivered than asked (R-like shortfall). */
export function noteMismatch(env: SeriesEnv, flaw: RecordFlaw, bars: number): void {
  env.ctx.events.shortfall?.(
    `kline ${env.product.code} ${env.interval}: the service sent an ${flaw.reason}; its ${bars} bar(s) were rejected (${flaw.code}) and the series stopped for this run`,
  );
}
