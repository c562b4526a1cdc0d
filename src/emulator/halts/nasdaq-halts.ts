import { announceMs, blank, maybeBlank, newestFirst, render, type Cell, type HaltEvent } from './halt-event.js';
import { NASDAQ_LISTINGS } from './halt-symbols.js';
import { seededRandom, type Random } from '../random/index.js';
import { US_ZONE, planUsDay, type UsKind, type UsPlan } from './us-halts.js';
import { formatDay, formatTime, formatWall, wallToMs } from './wall-clock.js';

const KINDS: readonly (readonly [UsKind, number])[] = [
  ['luld', 45], ['news', 25], ['regulatory', 14], ['corporate', 16],
];

/** NASDAQ prints either its halt code or a description. */
const REASONS: Readonly<Record<UsKind, readonly string[]>> = {
  luld: ['LUDP', 'M', 'Volatility pause', 'Volatility Trading Pause'],
  news: ['T1', 'T1', 'News pending'],
  imbalance: ['T6', 'Extraordinary market activity'],
  regulatory: ['H10', 'H4', 'H11', 'T12', 'Regulatory halt'],
  corporate: ['T3', 'T12', 'Corporate action'],
};

/** The NASDAQ halts first published on New York calendar day `day`, newest first. */
export function nasdaqDay(seed: number, day: number): HaltEvent[] {
  const rng = seededRandom(seed, 'nasdaq', day);
  return planUsDay(rng, day, NASDAQ_LISTINGS, KINDS).map((p) => toEvent(rng, p)).sort(newestFirst);
}

function toEvent(rng: Random, p: UsPlan): HaltEvent {
  const [symbol, name, venue] = p.listing;
  // The threshold price belongs to volatility pauses; other halts leave it blank.
  const threshold: Cell = p.kind === 'luld' ? maybeBlank(rng, price(rng), 0.1) : blank(rng);
  // Key order as in NASDAQ's documented example, which differs from NYSE's.
  const head = [
    ['symbol', symbol],
    ['symbolName', maybeBlank(rng, name, 0.08)],
    ['haltDate', maybeBlank(rng, formatDay(p.halt.day), 0.04)],
    ['haltTime', maybeBlank(rng, formatTime(p.halt.sec), 0.03)],
    ['haltDateTime', formatWall(p.halt)],
    ['sourceExchange', maybeBlank(rng, venue, 0.05)],
    ['haltReason', maybeBlank(rng, rng.pick(REASONS[p.kind]), 0.05)],
    ['pauseThresholdPrice', threshold],
  ] as const;
  const publishDate = ['publishDate', formatWall(p.publish)] as const;
  const before = render([
    ...head, ['resumeDate', blank(rng)], ['resumeTime', blank(rng)], ['resumeDateTime', blank(rng)], publishDate,
  ]);
  const quote = p.quoteResume;
  const trade = p.tradeResume ?? quote;
  // resumeDate/resumeTime: quoting resumes; resumeDateTime: trading resumes (S3).
  const after = quote === null || trade === null
    ? before
    : render([
        ...head,
        ['resumeDate', formatDay(quote.day)], ['resumeTime', formatTime(quote.sec)], ['resumeDateTime', formatWall(trade)],
        publishDate,
      ]);
  const publishMs = wallToMs(US_ZONE, p.publish);
  return {
    key: `nasdaq|${symbol}|${formatWall(p.halt)}|${formatWall(p.publish)}`,
    publishMs,
    announceMs: announceMs(US_ZONE, p.announce, publishMs),
    before,
    after,
  };
}

/** A threshold price as a decimal string, built from integers so no float rounding shows. */
function price(rng: Random): string {
  if (rng.chance(0.12)) return `0.${String(rng.int(100, 9999)).padStart(4, '0')}`;
  return `${rng.int(1, 900)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
}
