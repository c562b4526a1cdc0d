import { announceMs, blank, maybeBlank, newestFirst, render, type Cell, type HaltEvent } from './halt-event.js';
import { NYSE_LISTINGS } from './halt-symbols.js';
import { seededRandom, type Random } from '../random/index.js';
import { US_ZONE, planUsDay, type UsKind, type UsPlan } from './us-halts.js';
import { formatDay, formatTime, formatWall, wallToMs } from './wall-clock.js';

const KINDS: readonly (readonly [UsKind, number])[] = [
  ['luld', 38], ['news', 22], ['imbalance', 12], ['regulatory', 12], ['corporate', 16],
];

const REASONS: Readonly<Record<UsKind, string>> = {
  luld: 'LULD pause',
  news: 'News pending',
  imbalance: 'Order imbalance',
  regulatory: 'Regulatory halt',
  corporate: 'Corporate action',
};

/** The NYSE halts first published on New York calendar day `day`, newest first. */
export function nyseDay(seed: number, day: number): HaltEvent[] {
  const rng = seededRandom(seed, 'nyse', day);
  return planUsDay(rng, day, NYSE_LISTINGS, KINDS).map((p) => toEvent(rng, p)).sort(newestFirst);
}

function toEvent(rng: Random, p: UsPlan): HaltEvent {
  const [symbol, name, venue] = p.listing;
  // NYSE's feed often leaves symbolName and haltDate out altogether (S3).
  const symbolName: Cell = rng.weighted<Cell>([
    [name, 0.55], [{ blank: 'absent' }, 0.32], [{ blank: 'empty' }, 0.08], [{ blank: 'null' }, 0.05],
  ]);
  const absent: Cell = { blank: 'absent' };
  const head = [
    ['symbol', symbol],
    ['symbolName', symbolName],
    ['haltReason', maybeBlank(rng, REASONS[p.kind], 0.06)],
    ['haltDate', rng.chance(0.55) ? formatDay(p.halt.day) : absent],
    ['haltTime', maybeBlank(rng, formatTime(p.halt.sec), 0.03)],
    ['haltDateTime', formatWall(p.halt)],
  ] as const;
  const tail = [
    ['sourceExchange', maybeBlank(rng, venue, 0.05)],
    ['publishDate', formatWall(p.publish)],
  ] as const;
  const before = render([
    ...head, ['resumeDate', blank(rng)], ['resumeTime', blank(rng)], ['resumeDateTime', blank(rng)], ...tail,
  ]);
  const r = p.quoteResume;
  const after = r === null
    ? before
    : render([
        ...head,
        ['resumeDate', formatDay(r.day)], ['resumeTime', formatTime(r.sec)], ['resumeDateTime', formatWall(r)],
        ...tail,
      ]);
  const publishMs = wallToMs(US_ZONE, p.publish);
  return {
    key: `nyse|${symbol}|${formatWall(p.halt)}|${formatWall(p.publish)}`,
    publishMs,
    announceMs: announceMs(US_ZONE, p.announce, publishMs),
    before,
    after,
  };
}
