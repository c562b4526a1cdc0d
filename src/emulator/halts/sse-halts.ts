import { announceMs, blank, maybeBlank, newestFirst, render, type Cell, type HaltEvent } from './halt-event.js';
import { SSE_LISTINGS, pickDistinct, type Listing } from './halt-symbols.js';
import { seededRandom, type Random } from '../random/index.js';
import {
  addSec, at, formatDay, formatTime, formatWall, isWeekday, nextWeekday, prevWeekday, wallToMs,
  type Wall,
} from './wall-clock.js';

export const SSE_ZONE = 'Asia/Shanghai';

type SseKind = 'intraday' | 'hour' | 'fullDay' | 'morning' | 'afternoon' | 'multiDay';

interface SsePlan {
  listing: Listing;
  kind: SseKind;
  reason: string;
  period: string;
  halt: Wall;
  publish: Wall;
  /** null: still suspended, no resumption ever announced. */
  resume: Wall | null;
  /** 'publish': resumption given in the first announcement; null: never announced. */
  announce: Wall | 'publish' | null;
}

const KIND_WEIGHTS: readonly (readonly [SseKind, number])[] = [
  ['intraday', 30], ['hour', 15], ['fullDay', 20], ['morning', 8], ['afternoon', 7], ['multiDay', 20],
];

/**
 * The SSE halts first published on local calendar day `day` (Asia/Shanghai), newest first.
 * Weekdays carry 1-3; a weekend evening now and then announces a suspension for Monday.
 */
export function sseDay(seed: number, day: number): HaltEvent[] {
  const rng = seededRandom(seed, 'sse', day);
  const weekday = isWeekday(day);
  const count = weekday
    ? rng.weighted([[1, 0.25], [2, 0.45], [3, 0.3]])
    : rng.chance(0.3) ? 1 : 0;
  const plans = pickDistinct(SSE_LISTINGS, count, rng.next).map((listing) => {
    const kind: SseKind = weekday ? rng.weighted(KIND_WEIGHTS) : rng.pick(['fullDay', 'multiDay'] as const);
    return plan(rng, day, listing, kind);
  });
  return plans.map((p) => toEvent(rng, p)).sort(newestFirst);
}

function plan(rng: Random, day: number, listing: Listing, kind: SseKind): SsePlan {
  const evening = (): Wall => at(day, rng.int(17, 21), rng.int(0, 59), rng.int(0, 59));
  switch (kind) {
    case 'intraday': {
      // Intraday pauses last 30 minutes; start times keep the pause inside one session half.
      const morning = rng.chance(0.6);
      const halt = morning
        ? at(day, 9, 35 + rng.int(0, 85), rng.int(0, 59))
        : at(day, 13, 5 + rng.int(0, 82), rng.int(0, 59));
      const resume = addSec(halt, 1800);
      return {
        listing, kind, halt, resume,
        reason: rng.pick(['异常波动停牌', '临时停牌', '盘中异常波动']),
        period: rng.pick(['盘中临时停牌', '盘中临时停牌', '停牌30分钟']),
        publish: addSec(halt, rng.int(0, 90)),
        announce: addSec(resume, -rng.int(0, 60)),
      };
    }
    case 'hour':
      return {
        listing, kind,
        reason: rng.pick(['临时停牌', '刊登重要公告']),
        period: '停牌1小时',
        publish: at(day, 8, rng.int(0, 75), rng.int(0, 59)),
        halt: at(day, 9, 30),
        resume: at(day, 10, 30),
        announce: 'publish',
      };
    case 'fullDay': {
      const haltDay = nextWeekday(day);
      return {
        listing, kind,
        reason: rng.pick(['重大事项停牌', '临时停牌', '刊登重要公告', '召开股东大会']),
        period: '全天停牌',
        publish: evening(),
        halt: at(haltDay, 9, 30),
        resume: at(nextWeekday(haltDay), 9, 30),
        announce: rng.chance(0.6) ? 'publish' : at(haltDay, rng.int(17, 20), rng.int(0, 59), rng.int(0, 59)),
      };
    }
    case 'morning': {
      const haltDay = nextWeekday(day);
      return {
        listing, kind,
        reason: rng.pick(['临时停牌', '刊登重要公告']),
        period: '上午停牌',
        publish: evening(),
        halt: at(haltDay, 9, 30),
        resume: at(haltDay, 13, 0),
        announce: 'publish',
      };
    }
    case 'afternoon':
      return {
        listing, kind,
        reason: rng.pick(['临时停牌', '重大事项停牌']),
        period: '下午停牌',
        publish: at(day, 11, 30 + rng.int(0, 29), rng.int(0, 59)),
        halt: at(day, 13, 0),
        resume: at(nextWeekday(day), 9, 30),
        announce: rng.chance(0.5) ? 'publish' : at(day, rng.int(17, 20), rng.int(0, 59), rng.int(0, 59)),
      };
    case 'multiDay': {
      // A suspension over several trading days; a quarter of them are still open (no resumption).
      const haltDay = nextWeekday(day);
      const open = rng.chance(0.25);
      const resumeDay = nextWeekday(haltDay, rng.int(3, 15));
      return {
        listing, kind,
        reason: rng.pick(['筹划重大资产重组', '筹划控制权变更', '重大事项停牌', '未按期披露定期报告']),
        period: '连续停牌',
        publish: evening(),
        halt: at(haltDay, 9, 30),
        resume: open ? null : at(resumeDay, 9, 30),
        announce: open ? null : at(prevWeekday(resumeDay), rng.int(17, 21), rng.int(0, 59), rng.int(0, 59)),
      };
    }
  }
}

function toEvent(rng: Random, p: SsePlan): HaltEvent {
  const [symbol, name] = p.listing;
  const wholeDay = p.kind === 'fullDay' || p.kind === 'multiDay';
  // Whole-day suspensions often carry no time of day, as the example record shows.
  const haltTime: Cell = wholeDay ? maybeBlank(rng, formatTime(p.halt.sec), 0.35) : formatTime(p.halt.sec);
  const head = [
    ['symbol', symbol],
    ['symbolName', maybeBlank(rng, name, 0.08)],
    ['haltReason', maybeBlank(rng, p.reason, 0.06)],
    ['haltDate', formatDay(p.halt.day)],
    ['haltTime', haltTime],
    ['haltPeriod', maybeBlank(rng, p.period, 0.06)],
  ] as const;
  const publishDate = ['publishDate', formatWall(p.publish)] as const;
  const before = render([...head, ['resumeDate', blank(rng)], ['resumeTime', blank(rng)], publishDate]);
  const after = p.resume === null
    ? before
    : render([...head, ['resumeDate', formatDay(p.resume.day)], ['resumeTime', formatTime(p.resume.sec)], publishDate]);
  const publishMs = wallToMs(SSE_ZONE, p.publish);
  return {
    key: `sse|${symbol}|${formatWall(p.halt)}|${formatWall(p.publish)}`,
    publishMs,
    announceMs: announceMs(SSE_ZONE, p.announce, publishMs),
    before,
    after,
  };
}
