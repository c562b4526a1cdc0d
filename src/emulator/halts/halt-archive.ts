import { DateTime } from 'luxon';
import type { HaltExchange, WireHaltRecord } from '../contracts.js';
import { BoundedCache } from './bounded-cache.js';
import type { HaltEvent } from './halt-event.js';
import { nasdaqDay } from './nasdaq-halts.js';
import { nyseDay } from './nyse-halts.js';
import { pageHalts, type HaltPageResult } from './page-halts.js';
import { SSE_ZONE, sseDay } from './sse-halts.js';
import { US_ZONE } from './us-halts.js';
import { localDay } from './wall-clock.js';

/** The zone each exchange's record times are written in (S2). */
export const HALT_ZONES: Readonly<Record<HaltExchange, string>> = {
  sse: SSE_ZONE,
  nyse: US_ZONE,
  nasdaq: US_ZONE,
};

const GENERATORS: Readonly<Record<HaltExchange, (seed: number, day: number) => HaltEvent[]>> = {
  sse: sseDay,
  nyse: nyseDay,
  nasdaq: nasdaqDay,
};

export interface HaltArchiveOptions {
  /** Days kept generated, over all exchanges; one year of three exchanges needs about 1100. */
  cacheDays?: number;
}

/**
 * The emulator's suspension records: a deterministic archive per seed.
 *
 * - Each (seed, exchange, exchange-local calendar day of publication) yields a fixed set of halts,
 *   so a day's records never change between requests, and as `now` moves the one-year window
 *   slides: records published more than a year ago drop off, new days come in.
 * - A record's identity is (exchange, symbol, halt start, publication time). Identity fields are
 *   never blank: `symbol`, `publishDate`, and `haltDate` (SSE) or `haltDateTime` (NYSE, NASDAQ).
 * - Content changes once: a halt whose resumption is announced after its publication is served
 *   with blank resume fields (null, "" or absent, fixed per record) until `now` reaches the
 *   announcement, then with the resume fields filled. Some halts are never resumed in the data.
 * - Wall times that do not exist or exist twice (US DST change days) are placed in time as luxon
 *   reads them (a gap time moves forward by the gap; an overlap time takes luxon's offset). No
 *   other record is published near them, so order does not depend on that rule.
 */
export class HaltArchive {
  private readonly days: BoundedCache<string, readonly HaltEvent[]>;

  constructor(
    readonly seed: number,
    options: HaltArchiveOptions = {},
  ) {
    if (!Number.isFinite(seed)) throw new RangeError(`invalid halt archive seed: ${String(seed)}`);
    this.days = new BoundedCache(options.cacheDays ?? 3000);
  }

  /**
   * The records of `exchange` published in (now - 1 year, now], newest publication first
   * (spec 4.5 rule 1), in the exchange's layout (S3). A year is a calendar year in UTC. The
   * array is fresh; the records are frozen and shared between calls.
   */
  records(exchange: HaltExchange, nowMs: number): WireHaltRecord[] {
    if (!Number.isFinite(nowMs)) throw new RangeError(`invalid now for ${exchange} halts: ${String(nowMs)}`);
    const zone = HALT_ZONES[exchange];
    const fromMs = DateTime.fromMillis(nowMs, { zone: 'utc' }).minus({ years: 1 }).toMillis();
    const out: WireHaltRecord[] = [];
    // Every record of a day is published on that local day, so walking days newest first and
    // each day's (sorted) events gives the global order without a sort.
    for (let day = localDay(zone, nowMs), first = localDay(zone, fromMs); day >= first; day--) {
      for (const event of this.day(exchange, day)) {
        if (event.publishMs > nowMs || event.publishMs <= fromMs) continue;
        out.push(nowMs >= event.announceMs ? event.after : event.before);
      }
    }
    return out;
  }

  /** S1 paging of a `records()` result; see `pageHalts`. */
  page(records: readonly WireHaltRecord[], page: number, size: number): HaltPageResult {
    return pageHalts(records, page, size);
  }

  /** The generated halts first published on one local day, newest first (for tests and tools). */
  day(exchange: HaltExchange, day: number): readonly HaltEvent[] {
    return this.days.getOrCreate(`${exchange}|${day}`, () => Object.freeze(GENERATORS[exchange](this.seed, day)));
  }
}
