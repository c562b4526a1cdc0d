/**
 * Reading one K-line series. Products whose /kline takes an end timestamp (forex, metals, crypto)
 * are walked backwards page by page; stocks, indexes and the rest only ever get their newest bars
 * (newest-bars.ts).
 */
import type { KlineResult } from '../../api/index.js';
import { familyPrefix } from '../../api/index.js';
import type { Batch } from '../../core/component.js';
import { QuotaExhaustedError } from '../../core/errors.js';
import type { Product } from '../../catalog/index.js';
import type { Interval, RawKline } from '../../core/records.js';
import { countBars, klineTypeOf } from '../../catalog/bar-grid.js';
import { WalkCalendar } from './walk-calendar.js';
import { takeChainBreak } from './broken-chain.js';
import { echoFlaw, firstAtOrAfter, klineStream, malformedRecords, mismatchedPage, newestFinal, productPage, toRawKlines, type AnswerTimes, type KlinePage } from '../shared/kline-records.js';
import { throwIfAborted } from '../shared/throw-if-aborted.js';
import { BatchBox } from '../shared/batch-box.js';
import { otherCounts, PAGE_BARS, pagesFor } from './page-bars.js';
import { maxOf, minOf, toCheckpoint, type KlinePosition, type WalkState } from './kline-position.js';
import { newestBars, type NewestBarsSaid } from './newest-bars.js';
import { predictChain } from './predicted-chain.js';
import { isoSeconds, noteMismatch, SHORT_PAGE_RETRIES, type SeriesEnv } from './series-env.js';

export { PAGE_BARS } from './page-bars.js';
export { isoSeconds, type SeriesEnv } from './series-env.js';

export async function* readSeries(env: SeriesEnv, start: KlinePosition): AsyncGenerator<BatchBox<RawKline>> {
  try {
    let records = 0;
    const said: NewestBarsSaid = { windowBelowNewest: false };
    for await (const box of env.product.endTimestampSupported ? walkSeries(env, start) : newestBars(env, start, said)) {
      records += box.peek().records.length;
      yield box;
    }
    if (records === 0 && !said.windowBelowNewest) noteNothingSent(env, start);
    // Nothing more to send for this series in this run, whatever the plan guessed.
    env.reporter.finish(klineStream(env.product.code, env.interval));
  } catch (error) {
    if (!(error instanceof QuotaExhaustedError)) throw error;
    // Committed pages and their checkpoints are kept; the next run (after the reset) resumes there.
    env.ctx.events.stoppedAtQuota?.();
    if (env.quota.exhausted === null) {
      env.quota.exhausted = error;
      // Whether a run then resumes depends on the sink keeping state: the run's notice says which.
      env.ctx.events.note?.(`daily request quota used up; stopped cleanly, run again after ${error.resetAt.toISOString()}`);
    }
  }
}

/**
 * Answers that held no bar of the window where the calendar has several (a product the service
 * lacks, a service days behind): nothing else would show it, since the coverage report lists the
 * series the lake holds. Said, at warn too; not a shortfall, as a halt looks the same.
 */
function noteNothingSent(env: SeriesEnv, start: KlinePosition): void {
  const now = env.ctx.clock.now();
  const fromSec = start.watermark !== null ? start.watermark + 1 : Math.ceil(env.sinceMs / 1000);
  const toMs = env.untilMs === null || env.untilMs > now ? now : env.untilMs;
  const expected = countBars(env.product, env.interval, fromSec * 1000, toMs + 1, now);
  // One or two bars may be minutes without a trade (R1); more missing than that is worth a line.
  if (expected < 3) return;
  const label = `kline ${env.product.code} ${env.interval}`;
  const [from, to] = [isoSeconds(fromSec), isoSeconds(Math.floor(toMs / 1000))];
  env.ctx.events.note?.(`${label}: the service sent no bar of ${from} .. ${to}, where the calendar has ${expected}: nothing stored (is the code served, is the service up to date?)`);
  env.ctx.logger.warn(`${label}: the service sent no bar of the window`, { from, to, expected });
}

async function* walkSeries(env: SeriesEnv, start: KlinePosition): AsyncGenerator<BatchBox<RawKline>> {
  const stream = klineStream(env.product.code, env.interval);
  // The series' sequence of batches, and whether its service has answered an end with the bar
  // above it (predicted-chain.ts): both carry over from one walk of the series to the next, the
  // mark from one run to the next too (the checkpoint keeps it).
  const shared: WalkShared = { n: 0, overlapping: start.overlapping === true, seen: false, judged: false };
  let pos = start;
  const sinceSec = Math.ceil(env.sinceMs / 1000);
  // 1. Finish a walk a killed run left.
  if (pos.walk) {
    // Newer bars than this walk's may follow (step 2): its batches bound nothing.
    pos = yield* walk(env, stream, shared, pos, pos.walk.next, pos.walk.floor, pos.walk.top, false);
  }
  // 2. From `until` (or now) back to the watermark, or to `since` the first time. An `until` still
  // to come is now: a page ending in the future would be answered with the newest bars all the
  // same, while the calendar, counting back from that end, would predict pages ahead that all fetch
  // those same bars again.
  const untilSec = env.untilMs === null || env.untilMs > env.ctx.clock.now() ? 0 : Math.floor(env.untilMs / 1000);
  const floor = pos.watermark !== null ? pos.watermark + 1 : sinceSec;
  if (untilSec === 0 || untilSec >= floor) {
    pos = yield* walk(env, stream, shared, pos, untilSec, floor, null, true);
  }
  // 3. `since` moved earlier than what is held: extend the history downwards (unless the service
  // already said it holds nothing older).
  if (pos.low !== null && sinceSec < pos.low && pos.begins === undefined) {
    pos = yield* walk(env, stream, shared, pos, pos.low - 1, sinceSec, null, true);
  }
  if (pos.begins !== undefined && start.begins === undefined) {
    env.ctx.events.note?.(
      `kline ${env.product.code} ${env.interval}: history begins at ${isoSeconds(pos.begins)}, after since ${isoSeconds(sinceSec)}: the service holds no older bar (not a gap)`,
    );
  }
}

/** A page's answer, the end it was asked for and when (finality is judged then: AnswerTimes). */
interface AskedPage {
  readonly result: KlineResult;
  readonly end: number;
  readonly askedAtMs: number;
}

/** What the walks of one series share. */
interface WalkShared {
  /** The next batch's sequence number. */
  n: number;
  /** Whether an answer held a bar above the end it was asked for (R2 overlap): see predicted-chain.ts. */
  overlapping: boolean;
  /** Whether an answer of this run did (`seen`), and whether one could have (`judged`: asked at an end). */
  seen: boolean;
  judged: boolean;
}

/**
 * The mark to keep in the checkpoint: seen in this run, or kept from an earlier one until an answer
 * of this run could have shown it and none did (a service that stopped overlapping is not paid for
 * in every later run).
 */
function keptMark(shared: WalkShared): boolean {
  return shared.seen || (shared.overlapping && !shared.judged);
}

/**
 * Pages backwards from `end` (0 = newest) to `floor`. Each page asks for the bars the calendar says
 * exist between the floor and the page's end (at most 500), the next end is the oldest bar - 1 s
 * (W4: bars with timestamp <= end), so pages neither overlap nor leave a hole. A page may hold
 * fewer bars than asked (R1: "at most 500", and minutes with no trade are absent): the walk ends
 * only at the floor, at the catalog's first listed bar, or when a request for older bars returns
 * none older, which is where the service's history begins.
 */
async function* walk(
  env: SeriesEnv,
  stream: string,
  shared: WalkShared,
  before: KlinePosition,
  end: number,
  floor: number,
  topSoFar: number | null,
  /**
   * Whether nothing after this walk is newer than it (steps 2 and 3): its batches then say below
   * which instant the series' later rows lie (Batch.settledFrom, of the series: the source's merge
   * makes it the run's). Step 3 extends below the lowest bar held, so it stays under every bound.
   */
  bounded: boolean,
): AsyncGenerator<BatchBox<RawKline>, KlinePosition> {
  const { client, ctx, product, interval } = env;
  const klineType = klineTypeOf(interval);
  const endpoint = `${familyPrefix(product.family)}/kline`;
  let top = topSoFar;
  let low = before.low;
  let pendingWalk = before.walk !== undefined;
  let begins: number | undefined;
  // The position of the last batch yielded: where a stopped walk resumes.
  let last = before;
  // A batch of this walk, with what it says of the series' later rows (see `bounded`): at or before
  // the next end while the walk goes on (`nextEnd`); after it, only step 3, below the lowest bar held.
  const boxed = (batch: Batch<RawKline>, nextEnd: number | null): BatchBox<RawKline> => {
    const settledFrom = !bounded ? undefined : nextEnd !== null ? (nextEnd + 1) * 1000 : low === null ? undefined : low * 1000;
    return new BatchBox(settledFrom === undefined ? batch : { ...batch, settledFrom });
  };
  const fetchPage = (pageEnd: number, want: number): Promise<AskedPage> => {
    const askedAtMs = ctx.clock.now();
    // With the stream's signal, also when it is a page asked for ahead: its requests are this stream's.
    const p = env.reporter
      .call(stream, (signal) => client.kline({ code: product.code, klineType, count: want, ...(pageEnd > 0 ? { endSec: pageEnd } : {}) }, signal))
      .then((result) => ({ result, end: pageEnd, askedAtMs }));
    // A speculative page that is never used must not become an unhandled rejection.
    p.catch(() => undefined);
    return p;
  };
  // Pages requested ahead, by their end: the calendar says where each page will stop, so the next
  // ends are known before the answers arrive. When a page stops elsewhere, they are still used
  // (broken-chain.ts).
  const ahead = new Map<number, Promise<AskedPage>>();
  // Asks again at an end whose answer left the question open, by end.
  const reasked = new Map<number, number>();
  // Pages asked for ahead ask the calendar the same questions again: each is answered once.
  const calendar = new WalkCalendar(product, interval, floor * 1000);
  // Bars the calendar puts between the floor and the walk's current end: counted once here (as the
  // planner does), then less each page's stretch, so a re-plan costs a page's bars, not the walk's.
  let uncovered = countBars(product, interval, floor * 1000, end === 0 ? ctx.clock.now() + 1 : end * 1000 + 1, ctx.clock.now());
  try {
    for (;;) {
      throwIfAborted(ctx.signal);
      const now = ctx.clock.now();
      const toMs = end === 0 ? now + 1 : end * 1000 + 1;
      const expected = calendar.countUpTo(toMs, PAGE_BARS, now);
      if (expected === 0) break;
      // One bar of slack below a page's end: a service whose end reaches a bar further (R2) must
      // still give the last bar above the floor.
      let want = Math.min(PAGE_BARS, expected + (end > 0 ? 1 : 0));
      let current: Promise<AskedPage> | undefined = ahead.get(end);
      // Whether the pages ahead stay as they are: the chain broke and the walk goes on down it.
      let onBrokenChain = false;
      if (current !== undefined) ahead.delete(end);
      else if (ahead.size > 0) {
        // A page ended elsewhere than predicted: what is ahead is used, not asked for again.
        const broken = takeChainBreak(ahead, end);
        const above = broken.above && (await broken.above.catch(() => undefined));
        if (above !== undefined && reachesBelow({ product, interval }, above, end)) {
          current = Promise.resolve(above);
          onBrokenChain = true;
        } else if (broken.below !== undefined) {
          const stretch = countBars(product, interval, (broken.below + 1) * 1000, toMs, now);
          if (stretch > 0) {
            // The stretch down to the page ahead, with a bar of slack as any page has.
            want = Math.min(want, stretch + 1);
            onBrokenChain = true;
          }
        }
      }
      current ??= fetchPage(end, want);
      if (end > 0 && !onBrokenChain) {
        // Keep `prefetchPages` pages in flight along the predicted chain.
        const chain = new Set<number>();
        for (const next of predictChain(calendar, end, want, env.prefetchPages, now, shared.overlapping)) {
          if (!ahead.has(next.end)) ahead.set(next.end, fetchPage(next.end, next.want));
          chain.add(next.end);
        }
        // What is ahead off this chain (left from a chain broken before) is forgotten: counted as
        // sent already, so what is ahead is only what the walk will use.
        for (const key of ahead.keys()) if (!chain.has(key)) ahead.delete(key);
      }
      let asked: AskedPage | undefined = await current;
      let result: KlineResult | undefined = asked.result;
      const times: AnswerTimes = { askedAtMs: asked.askedAtMs, answeredAtMs: ctx.clock.now() };
      const mismatch = echoFlaw({ code: product.code, interval }, result, result.trace);
      if (mismatch) {
        // An answer for another series says nothing about this one: its bars are rejected by name,
        // the position stays where it was, and the series stops for this run.
        const records = malformedRecords(product.code, interval, mismatchedPage(result.bars, mismatch).malformed, endpoint);
        yield new BatchBox({ stream, seq: shared.n++, records });
        noteMismatch(env, mismatch, result.bars.length);
        return last;
      }
      let page: KlinePage | undefined = productPage(product, result.bars);
      // Judged against the end the page was asked for: a page ahead used below its end (a broken
      // chain) holds bars above the walk's end as a matter of course.
      if (asked.end > 0 && page.ts.length > 0) {
        shared.judged = true;
        if (page.ts[page.ts.length - 1]! > asked.end) shared.overlapping = shared.seen = true;
      }
      // The page is ascending: bars at or before the end are a prefix, those kept a range of it.
      const olderThanEnd = end === 0 ? page.ts.length : firstAtOrAfter(page, end + 1);
      if (olderThanEnd === 0 && page.malformed.length === 0) {
        // Bars, but all above the end: a short page (R1) of a service whose end reaches further
        // (R2) keeps the newest, so this says nothing of older bars. Ask again with other counts.
        const tries = reasked.get(end) ?? 0;
        if (end > 0 && page.ts.length > 0 && tries < SHORT_PAGE_RETRIES) {
          reasked.set(end, tries + 1);
          ahead.set(end, fetchPage(end, otherCounts(want, SHORT_PAGE_RETRIES)[tries]!));
          continue;
        }
        // None older: the service's history begins above this end.
        if (low !== null && floor < low) begins = low;
        break;
      }
      const keptFrom = firstAtOrAfter(page, floor);
      let kept: readonly RawKline[] | undefined = toRawKlines(product, interval, page, times, endpoint, keptFrom, Math.max(keptFrom, olderThanEnd));
      let records: readonly RawKline[] | undefined = page.malformed.length === 0 ? kept : [...kept, ...malformedRecords(product.code, interval, page.malformed, endpoint)];
      top = maxOf(top, newestFinal(records));
      const oldest = olderThanEnd > 0 ? page.ts[0]! : null;
      if (kept.length > 0) low = minOf(low, page.ts[keptFrom]!);
      const done =
        oldest === null ||
        oldest <= floor ||
        // The calendar says nothing is left between the floor and the next end: no empty request.
        calendar.countUpTo((oldest - 1) * 1000 + 1, 1, times.answeredAtMs) === 0;
      const state: WalkState = { next: (oldest ?? end) - 1, floor, top };
      const position: KlinePosition = withOverlap(
        done ? withBegins({ watermark: maxOf(before.watermark, top), low }, before.begins) : withBegins({ watermark: before.watermark, low, walk: state }, before.begins),
        keptMark(shared),
      );
      last = position;
      if (!done) {
        // Short pages (R1) make a walk longer than planned: what is left below the next end, less
        // the pages already asked for ahead, is still to come.
        uncovered -= countBars(product, interval, state.next * 1000 + 1, toMs, now);
        env.reporter.replan(stream, pagesFor(Math.max(0, uncovered)) - ahead.size);
      }
      const box = boxed({ stream, seq: shared.n++, records, checkpoint: toCheckpoint(stream, position) }, done ? null : state.next);
      // Nothing of the page stays in this frame while it is suspended (see BatchBox).
      current = asked = result = page = kept = records = undefined;
      yield box;
      pendingWalk = !done;
      if (done) return position;
      end = state.next;
    }
  } finally {
    ahead.clear();
  }
  const position = withOverlap(withBegins({ watermark: maxOf(before.watermark, top), low }, begins ?? before.begins), keptMark(shared));
  if (pendingWalk || position.watermark !== before.watermark || position.begins !== before.begins || position.overlapping !== before.overlapping) {
    // Nothing more to fetch, but the walk state must be cleared in the checkpoint.
    yield boxed({ stream, seq: shared.n++, records: [], checkpoint: toCheckpoint(stream, position) }, null);
  }
  return position;
}

/**
 * Whether a page asked for at an end above `end` can be the walk's page at `end`: an answer for this
 * series, every bar readable, and at least one at or before `end` (those above are cut as any
 * page's bars above its end are).
 */
function reachesBelow(series: { product: Product; interval: Interval }, asked: AskedPage, end: number): boolean {
  const { result } = asked;
  if (result.bars.length === 0 || echoFlaw({ code: series.product.code, interval: series.interval }, result)) return false;
  const page = productPage(series.product, result.bars);
  return page.malformed.length === 0 && firstAtOrAfter(page, end + 1) > 0;
}

function withBegins(position: KlinePosition, begins: number | undefined): KlinePosition {
  return begins === undefined ? position : { ...position, begins };
}

/** The position with the series' overlap mark (kline-position.ts), once it is learned. */
function withOverlap(position: KlinePosition, overlapping: boolean): KlinePosition {
  return overlapping ? { ...position, overlapping: true } : position;
}
