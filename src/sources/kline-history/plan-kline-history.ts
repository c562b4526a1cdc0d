/**
 * The requests a kline-history run will send, counted from the catalog's calendar and the
 * checkpoints exactly as the run walks (one request per 500 bars a series needs), without a request.
 */
import { familyPrefix } from '../../api/index.js';
import { findProduct } from '../../catalog/index.js';
import type { Interval } from '../../core/records.js';
import type { PlanContext, RequestGroup, SourcePlan, StreamPlan } from '../../core/plan-types.js';
import { countBars, intervalSupported, firstCellMs, nthBarBack } from '../../catalog/bar-grid.js';
import { partitionsWithBars } from './planned-partitions.js';
import { klineStream } from '../shared/kline-records.js';
import { emptyWindow } from '../shared/empty-window.js';
import { resolveTimeSpec } from '../shared/time-spec.js';
import type { KlineHistoryConfig } from './index.js';
import { readPosition } from './kline-position.js';
import { PAGE_BARS, pagesFor } from './page-bars.js';
import { newestOnlyKind, reachBelow } from './newest-bars.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function planKlineHistory(
  config: Pick<KlineHistoryConfig, 'codes' | 'intervals' | 'since' | 'until'>,
  ctx: Pick<PlanContext, 'nowMs' | 'spanFromMs' | 'checkpoints'>,
): SourcePlan {
  const now = ctx.nowMs;
  const spanFrom = ctx.spanFromMs ?? now;
  const streams: StreamPlan[] = [];
  const perEndpoint = new Map<string, number>();
  const partitions = new Set<string>();
  const notes: string[] = [];
  for (const code of config.codes) {
    const product = findProduct(code);
    if (!product) {
      notes.push(`kline ${code}: unknown product code, not planned`);
      continue;
    }
    const endpoint = `${familyPrefix(product.family)}/kline`;
    for (const interval of config.intervals as Interval[]) {
      if (!intervalSupported(product, interval)) continue;
      const stream = klineStream(code, interval);
      const pos = readPosition(ctx.checkpoints.get(stream));
      const sinceMs = Math.max(config.since !== undefined ? resolveTimeSpec(config.since, spanFrom) : -Infinity, firstCellMs(product, interval));
      const sinceSec = Math.ceil(sinceMs / 1000);
      const untilMs = config.until !== undefined ? resolveTimeSpec(config.until, spanFrom) : null;
      let bars = 0;
      let requests = 0;
      // Only partitions holding a bar of the range: not the empty stretch before it (from a
      // watermark to midnight), nor a closed market's weekend or today before its open.
      const touch = (fromMs: number, toMsExclusive: number) => {
        for (const p of partitionsWithBars(product, interval, fromMs, toMsExclusive, now)) partitions.add(p);
      };
      const span = (fromSec: number, toMsExclusive: number) => {
        if (!(toMsExclusive > fromSec * 1000)) return;
        const n = countBars(product, interval, fromSec * 1000, toMsExclusive, now);
        bars += n;
        requests += pagesFor(n);
        if (n > 0) touch(fromSec * 1000, toMsExclusive);
      };
      if (product.endTimestampSupported) {
        let watermark = pos.watermark;
        let low = pos.low;
        if (pos.walk) {
          // The interrupted walk is finished first; it holds everything down to its floor after that.
          span(pos.walk.floor, pos.walk.next * 1000 + 1);
          if (pos.walk.top !== null) watermark = Math.max(watermark ?? pos.walk.top, pos.walk.top);
          low = Math.min(low ?? pos.walk.floor, pos.walk.floor);
        }
        const floor = watermark !== null ? watermark + 1 : sinceSec;
        span(floor, untilMs === null ? now + 1 : Math.floor(untilMs / 1000) * 1000 + 1);
        if (low !== null && sinceSec < low && pos.begins === undefined) span(sinceSec, low * 1000);
      } else {
        const floor = pos.watermark !== null ? pos.watermark + 1 : sinceSec;
        // A since moved below what is held is reached from the same request, as far as it goes.
        const below = reachBelow(product, interval, pos, sinceSec, now);
        // Held up to until already: the run asks for nothing (as newest-bars.ts).
        const held = untilMs !== null && floor * 1000 > untilMs && below === null;
        const n = held ? 0 : countBars(product, interval, floor * 1000, now + 1, now);
        const reach = below === null ? n : countBars(product, interval, below * 1000, now + 1, now);
        // Of the newest bars asked for, those under the oldest held are the extension's.
        const fromLow = below === null ? 0 : countBars(product, interval, pos.low! * 1000, now + 1, now);
        bars = Math.min(n, PAGE_BARS) + (below === null ? 0 : Math.max(0, Math.min(reach, PAGE_BARS) - fromLow));
        // The newest bars' oldest, when until lies below it: nothing of the window can ever come.
        const newestFrom = reach > 0 ? (nthBarBack(product, interval, now, Math.min(reach, PAGE_BARS), (below ?? floor) * 1000) ?? (below ?? floor) * 1000) : null;
        const untilBelow = pos.watermark === null && untilMs !== null && newestFrom !== null && newestFrom > untilMs;
        if (untilBelow) {
          bars = 0;
          notes.push(
            `kline ${code} ${interval}: until ${iso(Math.floor(untilMs / 1000) * 1000)} is older than the newest ${PAGE_BARS} bars the service gives ${newestOnlyKind(product)} (from ${iso(newestFrom)} on): the bars of ${iso(floor * 1000)} .. ${iso(Math.floor(untilMs / 1000) * 1000)} cannot be fetched; the run stores none`,
          );
        }
        if (below !== null && reach > PAGE_BARS) {
          notes.push(`kline ${code} ${interval}: since ${iso(sinceMs)} cannot be reached (${reach} bars; ${newestOnlyKind(product)} get only their newest ${PAGE_BARS}); the history is extended down as far as they go`);
        }
        requests = reach > 0 ? 1 : 0;
        if (reach > 0) {
          // The answer holds the newest min(reach, 500) bars; the run keeps those after the
          // watermark and, when since moved down, those under the oldest held (both up to until).
          const oldest = nthBarBack(product, interval, now, Math.min(reach, PAGE_BARS), (below ?? floor) * 1000) ?? (below ?? floor) * 1000;
          const untilEx = untilMs === null ? now + 1 : Math.floor(untilMs / 1000) * 1000 + 1;
          touch(Math.max(oldest, floor * 1000), untilEx);
          if (below !== null) touch(Math.max(oldest, below * 1000), Math.min(pos.low! * 1000, untilEx));
        }
        if (n > PAGE_BARS && !untilBelow) {
          notes.push(
            pos.watermark === null
              ? `kline ${code} ${interval}: since ${iso(sinceMs)} cannot be reached in one run (${n} bars; ${newestOnlyKind(product)} get only their newest ${PAGE_BARS}); history builds up across scheduled runs`
              : `kline ${code} ${interval}: ${n} new bars since the last run, more than the newest ${PAGE_BARS} the service gives ${newestOnlyKind(product)}; the older ones will be missing`,
          );
        }
      }
      streams.push({ stream, requests, records: bars, sequential: product.endTimestampSupported });
      perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + requests);
    }
  }
  const window = emptyWindow(config, now);
  if (window !== undefined) notes.push(`nothing to do${window.notYet ? ' yet' : ''}: ${window.reason}; the run would send no request`);
  const groups: RequestGroup[] = [...perEndpoint].map(([endpoint, requests]) => ({ endpoint, requests }));
  return { groups, streams, partitions: [...partitions].sort(), notes };
}
