import type { UsListing } from './halt-symbols.js';
import { pickDistinct } from './halt-symbols.js';
import type { Random } from '../random/index.js';
import { addSec, at, dstChange, isWeekday, nextWeekday, prevWeekday, type Wall } from './wall-clock.js';

export const US_ZONE = 'America/New_York';

export type UsKind = 'luld' | 'news' | 'imbalance' | 'regulatory' | 'corporate';

/** One US halt before it is written in NYSE's or NASDAQ's layout. */
export interface UsPlan {
  listing: UsListing;
  kind: UsKind;
  halt: Wall;
  publish: Wall;
  /** When quoting resumes (NYSE: when the security resumes); null = still halted. */
  quoteResume: Wall | null;
  /** When trading resumes, a few minutes after quoting (NASDAQ's resumeDateTime). */
  tradeResume: Wall | null;
  /** 'publish': resumption known at publication; null: never announced. */
  announce: Wall | 'publish' | null;
}

const OPEN = at(0, 9, 30).sec;
const LAST_RESUME = at(0, 15, 55).sec;

/**
 * The US halts first published on New York calendar day `day`, in no particular order.
 * Weekdays carry 1-3. On the two DST change days (Sundays) a corporate-action notice is published
 * at a wall time that does not exist (02:30 in the spring gap) or exists twice (01:30 in the
 * autumn overlap), as a feed that stamps local wall clocks would print it.
 */
export function planUsDay(
  rng: Random,
  day: number,
  listings: readonly UsListing[],
  kinds: readonly (readonly [UsKind, number])[],
): UsPlan[] {
  if (isWeekday(day)) {
    const count = rng.weighted([[1, 0.25], [2, 0.45], [3, 0.3]]);
    return pickDistinct(listings, count, rng.next).map((listing) => planWeekday(rng, day, listing, rng.weighted(kinds)));
  }
  const change = dstChange(US_ZONE, day);
  if (change !== 0) {
    const [listing] = pickDistinct(listings, 1, rng.next);
    if (listing === undefined) return [];
    const publish = change > 0 ? at(day, 2, 30, 0) : at(day, 1, 30, 0);
    return [corporate(rng, day, listing, publish, nextWeekday(day))];
  }
  if (!rng.chance(0.06)) return [];
  const [listing] = pickDistinct(listings, 1, rng.next);
  return listing === undefined ? [] : [corporate(rng, day, listing, evening(rng, day), nextWeekday(day))];
}

function planWeekday(rng: Random, day: number, listing: UsListing, kind: UsKind): UsPlan {
  switch (kind) {
    case 'luld': {
      // A limit-up/limit-down pause lasts 5 minutes, sometimes extended to 10.
      const halt = at(day, 9, 35 + rng.int(0, 360), rng.int(0, 59)); // ends before 16:00 with trading back
      const quoteResume = addSec(halt, rng.chance(0.2) ? 600 : 300);
      return {
        listing, kind, halt, quoteResume,
        publish: addSec(halt, rng.int(5, 45)),
        tradeResume: addSec(quoteResume, rng.int(1, 5) * 60),
        announce: addSec(quoteResume, -rng.int(0, 30)),
      };
    }
    case 'news': {
      const halt = at(day, 9, 30 + rng.int(0, 375), rng.int(0, 59));
      const publish = addSec(halt, rng.int(-300, 30));
      const sameDay = roundUp(halt.sec + rng.int(30, 120) * 60, 300);
      if (rng.chance(0.7) && sameDay <= LAST_RESUME) {
        const quoteResume = { day, sec: sameDay };
        return {
          listing, kind, halt, publish, quoteResume,
          tradeResume: addSec(quoteResume, 300),
          announce: addSec(quoteResume, -rng.int(5, 15) * 60),
        };
      }
      return nextDayResume(rng, listing, kind, halt, publish, nextWeekday(day));
    }
    case 'imbalance': {
      if (rng.chance(0.6)) {
        const halt = at(day, 9, 30 + rng.int(0, 14), rng.int(0, 59));
        const quoteResume = { day, sec: roundUp(halt.sec + rng.int(5, 15) * 60, 60) };
        return {
          listing, kind, halt, quoteResume,
          publish: addSec(halt, rng.int(5, 60)),
          tradeResume: addSec(quoteResume, rng.int(1, 3) * 60),
          announce: addSec(quoteResume, -rng.int(0, 60)),
        };
      }
      // An imbalance into the close resumes at the next open.
      const halt = at(day, 15, 50 + rng.int(0, 9));
      return nextDayResume(rng, listing, kind, halt, addSec(halt, rng.int(5, 60)), nextWeekday(day));
    }
    case 'regulatory': {
      const halt = at(day, 9, 30 + rng.int(0, 360), rng.int(0, 59));
      const publish = addSec(halt, rng.int(10, 120));
      const mode = rng.weighted([['sameDay', 0.3], ['days', 0.35], ['open', 0.35]] as const);
      const sameDay = roundUp(halt.sec + rng.int(60, 180) * 60, 300);
      if (mode === 'sameDay' && sameDay <= LAST_RESUME) {
        const quoteResume = { day, sec: sameDay };
        return {
          listing, kind, halt, publish, quoteResume,
          tradeResume: addSec(quoteResume, 300),
          announce: addSec(quoteResume, -rng.int(10, 30) * 60),
        };
      }
      if (mode === 'open') {
        return { listing, kind, halt, publish, quoteResume: null, tradeResume: null, announce: null };
      }
      return nextDayResume(rng, listing, kind, halt, publish, nextWeekday(day, rng.int(1, 10)));
    }
    case 'corporate':
      if (rng.chance(0.3)) return corporate(rng, day, listing, at(day, 7, rng.int(0, 134), rng.int(0, 59)), day);
      return corporate(rng, day, listing, evening(rng, day), nextWeekday(day));
  }
}

/** A corporate-action halt at the open of `haltDay`, published outside trading hours. */
function corporate(rng: Random, day: number, listing: UsListing, publish: Wall, haltDay: number): UsPlan {
  const halt = at(haltDay, 9, 30);
  // A few never resume in the data (a pending merger or delisting).
  if (rng.chance(0.08)) return { listing, kind: 'corporate', halt, publish, quoteResume: null, tradeResume: null, announce: null };
  const known = rng.chance(0.5);
  if (rng.chance(0.6)) {
    const quoteResume = { day: haltDay, sec: OPEN + rng.int(12, 48) * 300 };
    return {
      listing, kind: 'corporate', halt, publish, quoteResume,
      tradeResume: addSec(quoteResume, 300),
      announce: known ? 'publish' : addSec(quoteResume, -rng.int(15, 45) * 60),
    };
  }
  const plan = nextDayResume(rng, listing, 'corporate', halt, publish, nextWeekday(haltDay, rng.int(1, 3)));
  return known ? { ...plan, announce: 'publish' } : plan;
}

/** Resumes at the open of `resumeDay`, announced the evening before or early that morning. */
function nextDayResume(
  rng: Random, listing: UsListing, kind: UsKind, halt: Wall, publish: Wall, resumeDay: number,
): UsPlan {
  const quoteResume = at(resumeDay, 9, 30);
  const announce = rng.chance(0.5)
    ? evening(rng, prevWeekday(resumeDay))
    : at(resumeDay, 7, rng.int(0, 119), rng.int(0, 59));
  return { listing, kind, halt, publish, quoteResume, tradeResume: addSec(quoteResume, 300), announce };
}

function evening(rng: Random, day: number): Wall {
  return at(day, rng.int(16, 20), rng.int(0, 59), rng.int(0, 59));
}

function roundUp(sec: number, step: number): number {
  return Math.ceil(sec / step) * step;
}
