/**
 * Stocks, indexes and the other products without an end timestamp (W4): only their newest bars
 * exist on the wire, so each run takes what is new since the watermark (at most 500) and history
 * builds up across runs; a `since` moved below the oldest bar held is reached from the same
 * newest bars, as far down as they go.
 */
import { familyPrefix } from '../../api/index.js';
import type { Product } from '../../catalog/index.js';
import type { Interval, RawKline } from '../../core/records.js';
import { countBars, klineTypeOf } from '../../catalog/bar-grid.js';
import { echoFlaw, firstAtOrAfter, klineStream, malformedRecords, mergePages, mismatchedPage, newestFinal, productPage, toRawKlines, type AnswerTimes, type KlinePage } from '../shared/kline-records.js';
import { reported } from '../shared/request-reporter.js';
import { throwIfAborted } from '../shared/throw-if-aborted.js';
import { BatchBox } from '../shared/batch-box.js';
import { otherCounts, PAGE_BARS } from './page-bars.js';
import { maxOf, minOf, toCheckpoint, type KlinePosition } from './kline-position.js';
import { isoSeconds, noteMismatch, SHORT_PAGE_RETRIES, type SeriesEnv } from './series-env.js';

const KIND: Partial<Record<Product['productClass'], string>> = { energy: 'energy products', 'cfd-index': 'CFD indexes', commodity: 'commodities' };

/** What the service serves only by its newest bars, in a note's words: "stocks and indexes", "energy products"... */
export function newestOnlyKind(product: Product): string {
  return KIND[product.productClass] ?? 'stocks and indexes';
}

/**
 * Where a run should reach down to below the oldest bar held (Unix s): `since`, when it lies below
 * that bar and the newest 500 bars go below it too; null otherwise. The newest bars only move on,
 * so once the bars held reach back 500 bars, nothing under them can be fetched again (and asking
 * would only repeat the note that says so).
 */
export function reachBelow(product: Product, interval: Interval, position: KlinePosition, sinceSec: number, nowMs: number): number | null {
  if (position.low === null || sinceSec >= position.low) return null;
  return countBars(product, interval, position.low * 1000, nowMs + 1, nowMs) < PAGE_BARS ? sinceSec : null;
}

/** What a run of newestBars said about its series, so the caller does not say it again in other words. */
export interface NewestBarsSaid {
  /** The window lies wholly below the newest bars: said why nothing was stored. */
  windowBelowNewest: boolean;
}

export async function* newestBars(env: SeriesEnv, start: KlinePosition, said?: NewestBarsSaid): AsyncGenerator<BatchBox<RawKline>> {
  const { client, ctx, product, interval } = env;
  const stream = klineStream(product.code, interval);
  const endpoint = `${familyPrefix(product.family)}/kline`;
  const kind = newestOnlyKind(product);
  const sinceSec = Math.ceil(env.sinceMs / 1000);
  const floor = start.watermark !== null ? start.watermark + 1 : sinceSec;
  throwIfAborted(ctx.signal);
  const now = ctx.clock.now();
  const below = reachBelow(product, interval, start, sinceSec, now);
  // Counted in full once per run: the note below says how many bars could not be reached.
  const expected = countBars(product, interval, floor * 1000, now + 1, now);
  const untilSec = env.untilMs === null ? null : Math.floor(env.untilMs / 1000);
  // Held up to until already (the watermark is a final bar) and no since moved down: nothing to ask.
  if (untilSec !== null && floor > untilSec && below === null) return;
  const reach = below === null ? expected : countBars(product, interval, below * 1000, now + 1, now);
  if (reach === 0) return;
  const want = Math.min(PAGE_BARS, reach);
  const answers: KlinePage[] = [];
  // Finality is judged at the first ask, the earliest any merged answer can have been read: a bar
  // that ended between two asks stays forming until the next run.
  const askedAtMs = ctx.clock.now();
  const ask = async (count: number): Promise<void> => {
    const result = await reported(env.reporter, (signal) => client.kline({ code: product.code, klineType: klineTypeOf(interval), count }, signal), stream);
    const mismatch = echoFlaw({ code: product.code, interval }, result, result.trace);
    if (mismatch) noteMismatch(env, mismatch, result.bars.length);
    // Each answer is checked on its own (a duplicate conflicts only within one answer); later answers win.
    answers.push(mismatch ? mismatchedPage(result.bars, mismatch) : productPage(product, result.bars));
  };
  await ask(want);
  let tries = 1;
  // A short page (R1) cannot be continued without an end timestamp: ask again, each time for a
  // different count (a service may answer the same request the same way), and keep every bar any
  // answer gave (each is a run of the newest bars, so together they are the longest one).
  const counts = otherCounts(want, SHORT_PAGE_RETRIES);
  for (let again = 0; again < counts.length && mergePages(answers).bars.length < want; again++) {
    await ask(counts[again]!);
    tries++;
  }
  const times: AnswerTimes = { askedAtMs, answeredAtMs: ctx.clock.now() };
  const page = mergePages(answers);
  const keptFrom = firstAtOrAfter(page, floor);
  const keptTo = Math.max(keptFrom, untilSec === null ? page.ts.length : firstAtOrAfter(page, untilSec + 1));
  const kept = toRawKlines(product, interval, page, times, endpoint, keptFrom, keptTo);
  const malformed = malformedRecords(product.code, interval, page.malformed, endpoint);
  // Under the oldest bar held (start.low), down to since: held bars between are not sent again.
  const belowFrom = below === null ? 0 : firstAtOrAfter(page, below);
  const belowTo = below === null ? 0 : Math.max(belowFrom, firstAtOrAfter(page, untilSec === null ? start.low! : Math.min(start.low!, untilSec + 1)));
  const extended = belowTo > belowFrom ? toRawKlines(product, interval, page, times, endpoint, belowFrom, belowTo) : [];
  const records = extended.length === 0 ? [...kept, ...malformed] : [...extended, ...kept, ...malformed];
  const top = newestFinal(records);
  const oldest = page.ts[0] ?? null;
  const lowest = extended.length > 0 ? page.ts[belowFrom]! : kept.length > 0 ? page.ts[keptFrom]! : null;
  const position: KlinePosition = { watermark: maxOf(start.watermark, top), low: minOf(start.low, lowest) };
  if (page.bars.length < want && page.bars.length > 0) {
    // Kept as the stream's for good (said again after a run that did not finish) only where the
    // next run will not ask down from the newest bars again, which would meet or mend it itself.
    const forGood = reachBelow(product, interval, position, sinceSec, now) === null;
    ctx.events.shortfall?.(
      `kline ${product.code} ${interval}: the service gave ${page.bars.length} of the newest ${want} bars asked for, in ${tries} tries; bars before ${isoSeconds(page.ts[0]!)} were not delivered`,
      1,
      ...(forGood ? [stream] : []),
    );
  }
  const label = `kline ${product.code} ${interval}`;
  const belowNewest = untilSec !== null && kept.length === 0 && extended.length === 0 && oldest !== null && oldest > untilSec;
  if (belowNewest && start.watermark === null) {
    // Checked first: nothing of the window can come, now or later (the newest bars only move on),
    // so neither "history starts at" a bar after until nor "is the service up to date?" is true.
    noteUntilBelowNewest(env, kind, floor, untilSec!, oldest!);
    if (said) said.windowBelowNewest = true;
  } else if (expected > PAGE_BARS && oldest !== null) {
    if (start.watermark !== null) {
      // A hole between the bars held and the new ones, for good: the run delivered less than
      // asked (exit 4; the runtime says each shortfall at warn too).
      const lost = countBars(product, interval, floor * 1000, oldest * 1000, now);
      const after = isoSeconds(start.watermark);
      ctx.events.shortfall?.(
        `${label}: ${expected} bars formed since the last run but the service gives ${kind} only their newest ${PAGE_BARS}; the ${lost} after ${after} (the newest held) and before ${isoSeconds(oldest)} cannot be fetched (run more often); a bar held there as forming (final=false) keeps the values it had then`,
        1,
        stream,
      );
    } else {
      noteUnreachable(env, kind, sinceSec, oldest);
    }
  } else if (below !== null && oldest !== null && oldest > below && countBars(product, interval, below * 1000, Math.min(oldest, start.low!) * 1000, now) > 0) {
    // since moved down further than the newest bars reach: as far as they go, said once (the next
    // run's newest bars no longer reach below what is held).
    noteUnreachable(env, kind, sinceSec, position.low!);
  } else if (belowNewest) {
    noteUntilBelowNewest(env, kind, floor, untilSec!, oldest!);
    if (said) said.windowBelowNewest = true;
  }
  yield new BatchBox({ stream, seq: 0, records, checkpoint: toCheckpoint(stream, position) });
}

/** `until` older than the newest bars: the window can never be fetched. A note, and a warn line. */
function noteUntilBelowNewest(env: SeriesEnv, kind: string, fromSec: number, untilSec: number, oldest: number): void {
  const label = `kline ${env.product.code} ${env.interval}`;
  env.ctx.events.note?.(
    `${label}: until ${isoSeconds(untilSec)} is older than the newest ${PAGE_BARS} bars the service gives ${kind} (from ${isoSeconds(oldest)} on): the bars of ${isoSeconds(fromSec)} .. ${isoSeconds(untilSec)} cannot be fetched, by this run or a later one; nothing stored`,
  );
  env.ctx.logger.warn(`${label}: until is older than the newest ${PAGE_BARS} bars the service gives ${kind}`, { until: isoSeconds(untilSec), oldest: isoSeconds(oldest) });
}

/**
 * The service's depth, known before the run (plan says so): the history starts later than asked,
 * with no hole in it. A note, and a warn line for runs that print no summary.
 */
function noteUnreachable(env: SeriesEnv, kind: string, sinceSec: number, historyFrom: number): void {
  const label = `kline ${env.product.code} ${env.interval}`;
  env.ctx.events.note?.(
    `${label}: since ${isoSeconds(sinceSec)} cannot be reached: the service gives ${kind} only their newest ${PAGE_BARS} bars (no end timestamp); history starts at ${isoSeconds(historyFrom)} and builds up across scheduled runs`,
  );
  env.ctx.logger.warn(`${label}: since cannot be reached (the service gives ${kind} only their newest ${PAGE_BARS} bars)`, { since: isoSeconds(sinceSec), historyFrom: isoSeconds(historyFrom) });
}
