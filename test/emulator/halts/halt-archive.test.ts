import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { HaltExchange, WireHaltRecord } from '../../../src/emulator/contracts.js';
import { HaltArchive } from '../../../src/emulator/halts/index.js';
import { EXCHANGES, LAYOUTS, RESUME_FIELDS, ZONES, has, identity, publishMs, text } from './halt-layouts.js';

const NOW = Date.parse('2026-11-22T00:30:00Z');
const YEAR_AGO = Date.parse('2025-11-22T00:30:00Z');
const archive = new HaltArchive(1);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FORMATS: Readonly<Record<string, RegExp>> = {
  haltDate: DATE, resumeDate: DATE,
  haltTime: TIME, resumeTime: TIME,
  haltDateTime: DATE_TIME, resumeDateTime: DATE_TIME, publishDate: DATE_TIME,
  pauseThresholdPrice: /^\d+\.\d{2,4}$/,
};

function localMs(exchange: HaltExchange, dateTime: string): number {
  return DateTime.fromFormat(dateTime, 'yyyy-MM-dd HH:mm:ss', { zone: ZONES[exchange] }).toMillis();
}

describe('HaltArchive layouts (S3, S4, spec 2.4)', () => {
  it.each(EXCHANGES)('%s records only carry the keys of their layout, all strings or null', (exchange) => {
    const records = archive.records(exchange, NOW);
    const allowed = new Set(LAYOUTS[exchange]);
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const r of records) {
      for (const [key, value] of Object.entries(r)) {
        if (!allowed.has(key)) problems.push(`key ${key}`);
        if (value !== null && typeof value !== 'string') problems.push(`${key}: ${typeof value}`);
        seen.add(key);
      }
    }
    expect(problems).toEqual([]);
    // Every layout key shows up somewhere in a year.
    expect([...seen].sort()).toEqual([...allowed].sort());
  });

  it('SSE has no haltDateTime; NYSE has no haltPeriod or pauseThresholdPrice; NASDAQ has thresholds', () => {
    expect(archive.records('sse', NOW).some((r) => 'haltDateTime' in r || 'sourceExchange' in r)).toBe(false);
    const nyse = archive.records('nyse', NOW);
    expect(nyse.some((r) => 'haltPeriod' in r || 'pauseThresholdPrice' in r)).toBe(false);
    const nasdaq = archive.records('nasdaq', NOW);
    expect(nasdaq.some((r) => 'haltPeriod' in r)).toBe(false);
    const priced = nasdaq.filter((r) => has(r, 'pauseThresholdPrice'));
    expect(priced.length).toBeGreaterThan(50);
    // Thresholds belong to volatility pauses.
    const volatility = /^(LUDP|M|Volatility pause|Volatility Trading Pause)$/;
    expect(priced.filter((r) => volatility.test(r.haltReason ?? '')).length / priced.length).toBeGreaterThan(0.85);
  });

  it.each(EXCHANGES)('%s values follow the time formats of spec 2.4 and the field meanings', (exchange) => {
    const problems: string[] = [];
    const check = (ok: boolean, what: string, r: WireHaltRecord) => {
      if (!ok) problems.push(`${what}: ${JSON.stringify(r)}`);
    };
    const venues = exchange === 'nyse' ? ['NYSE', 'NYSE American', 'NYSE Arca'] : ['NASDAQ', 'NYSE', 'NYSE American', 'NYSE Arca'];
    for (const r of archive.records(exchange, NOW)) {
      for (const [key, format] of Object.entries(FORMATS)) {
        if (has(r, key)) check(format.test(text(r, key)), `format of ${key}`, r);
      }
      // Non-null fields (symbol, publishDate) and the halt start are always there.
      check(has(r, 'symbol') && has(r, 'publishDate'), 'non-null fields', r);
      check(has(r, exchange === 'sse' ? 'haltDate' : 'haltDateTime'), 'halt start', r);
      if (exchange === 'sse') {
        check(/^(600|601|603|605|688)\d{3}$/.test(text(r, 'symbol')), 'A-share code', r);
        if (has(r, 'symbolName')) check(/[\u4e00-\u9fff]/.test(text(r, 'symbolName')), 'Chinese name', r);
        if (has(r, 'haltReason')) check(/[\u4e00-\u9fff]/.test(text(r, 'haltReason')), 'Chinese reason', r);
        continue;
      }
      if (has(r, 'haltDate') && has(r, 'haltTime')) {
        check(text(r, 'haltDateTime') === `${text(r, 'haltDate')} ${text(r, 'haltTime')}`, 'haltDateTime', r);
      }
      if (RESUME_FIELDS[exchange].every((k) => has(r, k))) {
        const quote = `${text(r, 'resumeDate')} ${text(r, 'resumeTime')}`;
        if (exchange === 'nyse') check(text(r, 'resumeDateTime') === quote, 'resumeDateTime', r);
        else {
          // NASDAQ: trading resumes a few minutes after quoting.
          const gapMin = (localMs(exchange, text(r, 'resumeDateTime')) - localMs(exchange, quote)) / 60_000;
          check(gapMin >= 1 && gapMin <= 5, 'quote-to-trade gap', r);
        }
      }
      if (has(r, 'sourceExchange')) check(venues.includes(text(r, 'sourceExchange')), 'sourceExchange', r);
    }
    expect(problems).toEqual([]);
  });

  it('SSE uses several halt periods and reasons', () => {
    const sse = archive.records('sse', NOW);
    const periods = new Set(sse.filter((r) => has(r, 'haltPeriod')).map((r) => r.haltPeriod));
    for (const p of ['全天停牌', '上午停牌', '下午停牌', '停牌1小时', '连续停牌', '盘中临时停牌']) expect(periods).toContain(p);
    const reasons = new Set(sse.map((r) => r.haltReason));
    for (const p of ['重大事项停牌', '临时停牌', '异常波动停牌', '筹划重大资产重组']) expect(reasons).toContain(p);
  });

  it('NASDAQ reasons mix halt codes and descriptions; NYSE uses descriptions', () => {
    const nasdaq = new Set(archive.records('nasdaq', NOW).map((r) => r.haltReason));
    for (const code of ['T1', 'T12', 'LUDP', 'H10', 'M', 'News pending']) expect(nasdaq).toContain(code);
    const nyse = new Set(archive.records('nyse', NOW).map((r) => r.haltReason));
    for (const why of ['News pending', 'LULD pause', 'Order imbalance', 'Regulatory halt', 'Corporate action']) {
      expect(nyse).toContain(why);
    }
  });
});

describe('HaltArchive volume, order and window (spec 4.5, 8.3)', () => {
  it.each([1, 2, 7, 42])('seed %i: at least 300 records per exchange in a year, newest first, all in the window', (seed) => {
    const a = new HaltArchive(seed);
    for (const now of [NOW, Date.parse('2026-03-09T15:00:00Z'), Date.parse('2027-07-04T12:00:00Z')]) {
      const from = DateTime.fromMillis(now, { zone: 'utc' }).minus({ years: 1 }).toMillis();
      for (const exchange of EXCHANGES) {
        const records = a.records(exchange, now);
        expect(records.length).toBeGreaterThanOrEqual(300);
        expect(records.length).toBeLessThanOrEqual(3 * 366);
        const times = records.map((r) => publishMs(exchange, r));
        expect(times.every((t, i) => i === 0 || t <= times[i - 1]!)).toBe(true);
        expect(times[0]!).toBeLessThanOrEqual(now);
        expect(times[times.length - 1]!).toBeGreaterThan(from);
        // The year is covered end to end, not just a part of it.
        expect(times[0]!).toBeGreaterThan(now - 5 * 86_400_000);
        expect(times[times.length - 1]!).toBeLessThan(from + 5 * 86_400_000);
        expect(new Set(records.map((r) => identity(exchange, r))).size).toBe(records.length);
      }
    }
  });

  it.each(EXCHANGES)('%s: halts start on weekdays in trading hours; some notices come out of hours', (exchange) => {
    const records = archive.records(exchange, NOW);
    const starts = records.map((r) =>
      exchange === 'sse' ? DateTime.fromISO(text(r, 'haltDate')) : DateTime.fromFormat(text(r, 'haltDateTime'), 'yyyy-MM-dd HH:mm:ss'),
    );
    expect(starts.every((d) => d.weekday <= 5)).toBe(true);
    const close = exchange === 'sse' ? '15:00:00' : '16:00:00';
    const times = records.filter((r) => has(r, 'haltTime')).map((r) => text(r, 'haltTime'));
    expect(times.length).toBeGreaterThan(records.length * 0.7);
    expect(times.every((t) => t >= '09:30:00' && t < close)).toBe(true);
    const published = records.map((r) => DateTime.fromFormat(text(r, 'publishDate'), 'yyyy-MM-dd HH:mm:ss'));
    expect(published.filter((d) => d.weekday <= 5).length / records.length).toBeGreaterThan(0.9);
    expect(published.some((d) => d.hour >= 17 || d.weekday > 5)).toBe(true);
  });

  it('the window slides: the oldest record drops off a year after its publication, new ones come in', () => {
    for (const exchange of EXCHANGES) {
      const before = archive.records(exchange, NOW);
      const oldest = before[before.length - 1]!;
      const dropAt = DateTime.fromMillis(publishMs(exchange, oldest), { zone: 'utc' }).plus({ years: 1 }).toMillis();
      const ids = (rs: readonly WireHaltRecord[]) => new Set(rs.map((r) => identity(exchange, r)));
      expect(ids(archive.records(exchange, dropAt - 1)).has(identity(exchange, oldest))).toBe(true);
      expect(ids(archive.records(exchange, dropAt)).has(identity(exchange, oldest))).toBe(false);
      const later = archive.records(exchange, NOW + 10 * 86_400_000);
      const known = ids(before);
      const fresh = later.filter((r) => !known.has(identity(exchange, r)));
      expect(fresh.length).toBeGreaterThan(5);
      expect(fresh.every((r) => publishMs(exchange, r) > NOW)).toBe(true);
    }
  });

  it('is deterministic per seed and independent of call history and cache size', () => {
    const a = new HaltArchive(7);
    const b = new HaltArchive(7, { cacheDays: 3 });
    b.records('nyse', NOW - 200 * 86_400_000); // warm b differently
    for (const exchange of EXCHANGES) {
      const first = a.records(exchange, NOW);
      expect(b.records(exchange, NOW)).toEqual(first);
      expect(a.records(exchange, NOW)).toEqual(first);
      expect(new HaltArchive(8).records(exchange, NOW)).not.toEqual(first);
    }
  });

  it('returns frozen shared records in a fresh array', () => {
    const one = archive.records('sse', NOW);
    const two = archive.records('sse', NOW);
    expect(one).not.toBe(two);
    expect(Object.isFrozen(one[0])).toBe(true);
  });

  it('rejects a non-finite now', () => {
    expect(() => archive.records('sse', Number.NaN)).toThrow(/invalid now for sse/);
  });
});

describe('HaltArchive content over time (incremental consumers)', () => {
  it.each(EXCHANGES)('%s: records stay identical within a day except for announced resumptions', (exchange) => {
    const start = Date.parse('2026-10-05T00:00:00Z');
    let previous = new Map(archive.records(exchange, start).map((r) => [identity(exchange, r), r]));
    let changed = 0;
    for (let t = start + 3_600_000; t <= start + 14 * 86_400_000; t += 3_600_000) {
      const current = new Map(archive.records(exchange, t).map((r) => [identity(exchange, r), r]));
      for (const [id, r] of current) {
        const old = previous.get(id);
        if (old === undefined || old === r) continue;
        // The only change ever: blank resume fields become filled, the rest stays as it was.
        changed++;
        expect(RESUME_FIELDS[exchange].every((k) => !has(old, k))).toBe(true);
        expect(RESUME_FIELDS[exchange].every((k) => has(r, k))).toBe(true);
        const rest = (x: WireHaltRecord) =>
          Object.fromEntries(Object.entries(x).filter(([k]) => !RESUME_FIELDS[exchange].includes(k)));
        expect(rest(r)).toEqual(rest(old));
        // Only records already published are ever served.
        expect(localMs(exchange, text(r, 'publishDate'))).toBeLessThanOrEqual(t);
      }
      // Nothing disappears except what falls out of the one-year window.
      const from = DateTime.fromMillis(t, { zone: 'utc' }).minus({ years: 1 }).toMillis();
      for (const [id, r] of previous) {
        if (!current.has(id)) expect(publishMs(exchange, r), `${id} vanished`).toBeLessThanOrEqual(from);
      }
      previous = current;
    }
    expect(changed).toBeGreaterThan(5);
  });

  it.each(EXCHANGES)('%s: some halts stay open (never resumed) and some span several days', (exchange) => {
    const records = archive.records(exchange, NOW);
    const old = records.filter((r) => publishMs(exchange, r) < NOW - 60 * 86_400_000);
    expect(old.some((r) => RESUME_FIELDS[exchange].every((k) => !has(r, k)))).toBe(true);
    const haltDay = (r: WireHaltRecord) =>
      exchange === 'sse' ? text(r, 'haltDate') : text(r, 'haltDateTime').slice(0, 10);
    const spans = records
      .filter((r) => has(r, 'resumeDate'))
      .map((r) => DateTime.fromISO(text(r, 'resumeDate')).diff(DateTime.fromISO(haltDay(r)), 'days').days);
    expect(spans.every((d) => d >= 0)).toBe(true);
    expect(spans.some((d) => d === 1)).toBe(true);
    expect(spans.some((d) => d >= 3)).toBe(true);
  });
});

describe('HaltArchive messy fields (S4)', () => {
  const fields: Readonly<Record<HaltExchange, readonly string[]>> = {
    sse: ['symbolName', 'haltReason', 'haltTime', 'haltPeriod', 'resumeDate', 'resumeTime'],
    nyse: ['symbolName', 'haltReason', 'resumeDate', 'resumeTime', 'resumeDateTime', 'sourceExchange'],
    nasdaq: ['symbolName', 'haltReason', 'pauseThresholdPrice', 'resumeDate', 'resumeTime', 'resumeDateTime'],
  };
  it.each([1, 2, 7, 42])('seed %i: null, "" and an absent key all occur for several fields', (seed) => {
    const a = new HaltArchive(seed);
    for (const exchange of EXCHANGES) {
      const records = a.records(exchange, NOW);
      for (const field of fields[exchange]) {
        const label = `${exchange}.${field}`;
        expect(records.some((r) => r[field] === null), `${label} null`).toBe(true);
        expect(records.some((r) => r[field] === ''), `${label} ""`).toBe(true);
        expect(records.some((r) => !(field in r)), `${label} absent`).toBe(true);
        expect(records.filter((r) => has(r, field)).length, `${label} mostly valued`).toBeGreaterThan(records.length * 0.3);
      }
    }
  });

  it('NYSE haltDate is sometimes present and sometimes absent; symbolName often absent, sometimes ""', () => {
    const nyse = archive.records('nyse', NOW);
    const withDate = nyse.filter((r) => 'haltDate' in r).length;
    expect(withDate).toBeGreaterThan(nyse.length * 0.3);
    expect(withDate).toBeLessThan(nyse.length * 0.8);
    expect(nyse.filter((r) => !('symbolName' in r)).length).toBeGreaterThan(nyse.length * 0.2);
    expect(archive.records('sse', NOW).some((r) => r.symbolName === '')).toBe(true);
  });
});

describe('HaltArchive DST change days (America/New_York)', () => {
  // The Sunday of the Monday-to-Sunday week holding March 8 (November 1) is the 2nd (1st) Sunday.
  const secondSundayOfMarch = (year: number) => DateTime.fromObject({ year, month: 3, day: 8 }).set({ weekday: 7 }).toISODate();
  const firstSundayOfNovember = (year: number) => DateTime.fromObject({ year, month: 11, day: 1 }).set({ weekday: 7 }).toISODate();

  it.each([
    ['2026-11-22T00:30:00Z', 2026, 2026],
    ['2026-06-01T12:00:00Z', 2026, 2025],
    ['2028-01-10T12:00:00Z', 2027, 2027],
  ] as const)('now %s: records published in the spring gap and the autumn overlap', (now, springYear, autumnYear) => {
    const spring = secondSundayOfMarch(springYear);
    const autumn = firstSundayOfNovember(autumnYear);
    for (const exchange of ['nyse', 'nasdaq'] as const) {
      const records = archive.records(exchange, Date.parse(now));
      const gap = records.filter((r) => r.publishDate === `${spring} 02:30:00`);
      const overlap = records.filter((r) => r.publishDate === `${autumn} 01:30:00`);
      expect(gap.length, `${exchange} ${spring}`).toBe(1);
      expect(overlap.length, `${exchange} ${autumn}`).toBe(1);
      // The gap time really does not exist, and the overlap time really exists twice.
      const zone = ZONES[exchange];
      const inGap = DateTime.fromFormat(`${spring} 02:30:00`, 'yyyy-MM-dd HH:mm:ss', { zone });
      expect(inGap.toFormat('HH:mm')).not.toBe('02:30');
      const first = DateTime.fromISO(`${autumn}T01:30:00-04:00`).setZone(zone);
      const second = DateTime.fromISO(`${autumn}T01:30:00-05:00`).setZone(zone);
      expect(first.toFormat('yyyy-MM-dd HH:mm')).toBe(second.toFormat('yyyy-MM-dd HH:mm'));
      // The halts they announce start at the next open, after the change.
      expect(text(gap[0]!, 'haltDateTime') > `${spring} 09:30:00`).toBe(true);
    }
  });
});
