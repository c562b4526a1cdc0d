import { describe, expect, it } from 'vitest';
import { normalizeHalts } from '../../src/transforms/normalize-halts/index.js';
import type { HaltRow, RawHalt } from '../../src/core/records.js';
import type { HaltExchange, WireHaltRecord } from '../../src/core/wire.js';
import { runContext, sinkEnv } from '../sinks/helpers.js';

const transform = normalizeHalts.create(normalizeHalts.configSchema.parse({}), sinkEnv('/tmp', 'halt'));
const raw = (exchange: HaltExchange, record: WireHaltRecord): RawHalt => ({ exchange, record, fetchedAtMs: 0 });

function run(records: RawHalt[]) {
  return transform.apply({ stream: 'halt', seq: 1, records }, runContext());
}

function one(record: RawHalt): HaltRow {
  const { output, rejected } = run([record]);
  expect(rejected).toEqual([]);
  return output.records[0]!;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('normalize-halts', () => {
  it('examples parse, unknown keys and unknown zones are refused', () => {
    for (const e of normalizeHalts.examples) expect(normalizeHalts.configSchema.safeParse(e).success).toBe(true);
    expect(normalizeHalts.configSchema.safeParse({ zone: 'UTC' }).success).toBe(false);
    expect(normalizeHalts.configSchema.safeParse({ zones: { sse: 'Mars/Olympus' } }).success).toBe(false);
  });

  it('SSE: date + time in Asia/Shanghai, local text kept, null/""/absent → null', () => {
    const a = one(raw('sse', { symbol: '600000', symbolName: '浦发银行', haltReason: '重大事项停牌', haltDate: '2024-01-15', haltTime: '09:30:00', haltPeriod: '全天停牌', resumeDate: '2024-01-16', resumeTime: '09:30:00', publishDate: '2024-01-14 18:00:00' }));
    expect({ ...a, halt_at: iso(a.halt_at), resume_trade_at: iso(a.resume_trade_at), published_at: iso(a.published_at) }).toEqual({
      exchange: 'sse',
      symbol: '600000',
      name: '浦发银行',
      reason: '重大事项停牌',
      period: '全天停牌',
      halt_at: '2024-01-15T01:30:00.000Z',
      halt_local: '2024-01-15 09:30:00',
      resume_quote_at: null,
      resume_trade_at: '2024-01-16T01:30:00.000Z',
      resume_local: '2024-01-16 09:30:00',
      source_exchange: null,
      pause_threshold_price: null,
      published_at: '2024-01-14T10:00:00.000Z',
      published_local: '2024-01-14 18:00:00',
    });
    const b = one(raw('sse', { symbol: '688001', symbolName: null, haltReason: '', haltDate: '2024-01-10', haltTime: '', haltPeriod: null, resumeDate: '', resumeTime: null, publishDate: '2024-01-09 20:15:00' }));
    expect([b.name, b.reason, b.period, b.halt_at, b.halt_local, b.resume_trade_at, b.resume_local]).toEqual([null, null, null, null, '2024-01-10', null, null]);
  });

  it('NYSE: haltDateTime preferred, haltDate+haltTime fallback, resume_trade_at from resumeDateTime, quote null', () => {
    const a = one(raw('nyse', { symbol: 'XYZ', symbolName: 'XYZ Holdings', haltReason: 'LULD pause', haltTime: '14:02:11', haltDateTime: '2024-01-12 14:02:11', resumeDate: null, resumeTime: '', resumeDateTime: null, sourceExchange: 'NYSE Arca', publishDate: '2024-01-12 14:02:30' }));
    expect([iso(a.halt_at), a.halt_local, a.resume_trade_at, a.resume_quote_at, a.source_exchange, iso(a.published_at)]).toEqual(['2024-01-12T19:02:11.000Z', '2024-01-12 14:02:11', null, null, 'NYSE Arca', '2024-01-12T19:02:30.000Z']);
    const b = one(raw('nyse', { symbol: 'KO', haltReason: null, haltDate: '2024-07-10', haltTime: '15:50:00', resumeDate: '2024-07-11', resumeTime: '09:30:00', sourceExchange: 'NYSE', publishDate: '2024-07-10 15:50:40' }));
    expect([iso(b.halt_at), b.halt_local, iso(b.resume_trade_at), b.resume_local, b.name]).toEqual(['2024-07-10T19:50:00.000Z', '2024-07-10 15:50:00', '2024-07-11T13:30:00.000Z', '2024-07-11 09:30:00', null]);
  });

  it('NASDAQ: resume_quote_at from resumeDate+resumeTime, resume_trade_at from resumeDateTime, pause price exact', () => {
    const a = one(raw('nasdaq', { symbol: 'GOOGL', haltDate: '2024-01-15', haltTime: '13:45:00', haltDateTime: '2024-01-15 13:45:00', sourceExchange: 'NASDAQ', haltReason: 'Volatility pause', pauseThresholdPrice: '145.50', resumeDate: '2024-01-15', resumeTime: '13:55:00', resumeDateTime: '2024-01-15 14:00:00', publishDate: '2024-01-15 13:44:30' }));
    expect([iso(a.halt_at), a.halt_local, iso(a.resume_quote_at), iso(a.resume_trade_at), a.resume_local, a.pause_threshold_price]).toEqual([
      '2024-01-15T18:45:00.000Z',
      '2024-01-15 13:45:00',
      '2024-01-15T18:55:00.000Z',
      '2024-01-15T19:00:00.000Z',
      '2024-01-15 14:00:00',
      '145.5',
    ]);
  });

  it('NASDAQ: a quoting resumption without its date takes the trading resumption\'s date, unless it is later in the day', () => {
    const base = { symbol: 'GOOGL', haltDateTime: '2024-06-03 09:55:00', resumeDate: null, resumeDateTime: '2024-06-03 10:10:00', publishDate: '2024-06-03 09:54:30' };
    const a = one(raw('nasdaq', { ...base, resumeTime: '10:05:00' }));
    expect([iso(a.resume_quote_at), iso(a.resume_trade_at), a.resume_local]).toEqual(['2024-06-03T14:05:00.000Z', '2024-06-03T14:10:00.000Z', '2024-06-03 10:10:00']);
    // Quoting after trading resumed is no date we can tell: rejected by name, as before.
    const { rejected } = run([raw('nasdaq', { ...base, resumeTime: '10:15:00' }), raw('nasdaq', { ...base, resumeDateTime: null, resumeTime: '10:05:00' })]);
    expect(rejected.map((r) => [r.code, r.field, r.value])).toEqual([
      ['QL_TIME_MALFORMED', 'resumeTime', '10:15:00'],
      ['QL_TIME_MALFORMED', 'resumeTime', '10:05:00'],
    ]);
  });

  // US change days: spring forward 2024-03-10, 2025-03-09, 2026-03-08; fall back 2024-11-03, 2025-11-02, 2026-11-01.
  it.each([
    ['2024-03-10 02:30:00', '2024-03-10T07:30:00.000Z', 'gap: pre-transition offset (shifted forward)'],
    ['2025-03-09 02:00:00', '2025-03-09T07:00:00.000Z', 'gap start'],
    ['2026-03-08 02:59:59', '2026-03-08T07:59:59.000Z', 'gap end'],
    ['2026-03-08 03:00:00', '2026-03-08T07:00:00.000Z', 'first EDT second'],
    ['2024-03-10 01:59:59', '2024-03-10T06:59:59.000Z', 'last EST second'],
    ['2024-11-03 01:30:00', '2024-11-03T05:30:00.000Z', 'overlap: earlier instant (EDT)'],
    ['2025-11-02 01:00:00', '2025-11-02T05:00:00.000Z', 'overlap start'],
    ['2026-11-01 01:59:59', '2026-11-01T05:59:59.000Z', 'overlap end'],
    ['2026-11-01 02:00:00', '2026-11-01T07:00:00.000Z', 'after the overlap (EST)'],
    ['2026-11-01 00:59:59', '2026-11-01T04:59:59.000Z', 'before the overlap (EDT)'],
  ])('DST %s → %s (%s)', (local, utc) => {
    for (const exchange of ['nyse', 'nasdaq'] as const) {
      const row = one(raw(exchange, { symbol: 'AAPL', haltDateTime: local, publishDate: local }));
      expect(iso(row.halt_at)).toBe(utc);
      expect(iso(row.published_at)).toBe(utc);
      expect(row.halt_local).toBe(local);
    }
  });

  it('rejects a time without a date, unparsable values and a missing or padded symbol, each with its reason', () => {
    const { output, rejected } = run([
      raw('nyse', { symbol: 'BRK.A', haltTime: '09:31:00', publishDate: '2024-01-11 09:31:05' }),
      raw('nasdaq', { symbol: 'X', haltDateTime: '2024-13-01 10:00:00', publishDate: '2024-01-11 09:31:05' }),
      raw('sse', { symbol: 'Y', haltDate: '2024/01/15', haltTime: '09:30:00', publishDate: '2024-01-11 09:31:05' }),
      raw('nasdaq', { symbol: 'Z', pauseThresholdPrice: 'abc', publishDate: '2024-01-11 09:31:05' }),
      raw('nyse', { symbol: '', publishDate: '2024-01-11 09:31:05' }),
      raw('nyse', { symbol: 'Q', publishDate: '2024-01-11T09:31:05' }),
      raw('nyse', { symbol: 'R', resumeTime: '25:00:00', resumeDate: '2024-01-11', publishDate: '2024-01-11 09:31:05' }),
      raw('nyse', { symbol: 'KO ', publishDate: '2024-01-11 09:31:05' }),
      raw('sse', { symbol: '   ', haltDate: '2024-01-15', publishDate: '2024-01-11 09:31:05' }),
    ]);
    expect(output.records).toEqual([]);
    expect(rejected.map((r) => [r.code, r.field, r.value])).toEqual([
      ['QL_TIME_MALFORMED', 'haltTime', '09:31:00'],
      ['QL_TIME_MALFORMED', 'haltDateTime', '2024-13-01 10:00:00'],
      ['QL_TIME_MALFORMED', 'haltDate', '2024/01/15'],
      ['QL_DECIMAL_MALFORMED', 'pauseThresholdPrice', 'abc'],
      ['QL_VALUE_MALFORMED', 'symbol', ''],
      ['QL_TIME_MALFORMED', 'publishDate', '2024-01-11T09:31:05'],
      ['QL_TIME_MALFORMED', 'resumeTime', '25:00:00'],
      ['QL_VALUE_MALFORMED', 'symbol', 'KO '],
      ['QL_VALUE_MALFORMED', 'symbol', '   '],
    ]);
    expect(rejected[0]!.reason).toBe('QL_TIME_MALFORMED: field haltTime: "09:31:00" is a time without a date (haltDate and haltDateTime empty)');
  });
});
