import { describe, expect, it } from 'vitest';
import { parseDecimals } from '../../src/transforms/parse-decimals/index.js';
import type { RawDepth, RawKline, RawTrade } from '../../src/core/records.js';
import { runContext, sinkEnv } from '../sinks/helpers.js';

const env = sinkEnv('/tmp', 'kline');
const make = (config: unknown = {}) => parseDecimals.create(parseDecimals.configSchema.parse(config), env);

const kline: RawKline = {
  code: 'SHIBUSDT',
  interval: '1m',
  final: false,
  source: '/kline',
  bar: { timestamp: '1763535600', open_price: '0.000018712345600000', close_price: '0.0000187', high_price: '0.00001872', low_price: '0.00001870', volume: '123456789012345.123456789012345678', turnover: '2310.5' },
};
const trade: RawTrade = {
  tick: { code: 'UNH.US', seq: '30841440', tick_time: '1677831545380', price: '481.15', volume: '200', turnover: '96230.00', trade_direction: 2 },
  fetchedAtMs: 1_677_831_546_000,
};
const depth: RawDepth = {
  tick: { code: 'US500', seq: '30686349', tick_time: '1677830357227', bids: [{ price: '4001.5' }], asks: [{ price: '4002.25', volume: '' }, { price: '4003', volume: '7.000' }] },
  fetchedAtMs: 1_677_830_358_000,
};

describe('parse-decimals', () => {
  it('every example parses and unknown keys are refused', () => {
    for (const example of parseDecimals.examples) expect(parseDecimals.configSchema.safeParse(example).success).toBe(true);
    expect(parseDecimals.configSchema.safeParse({ precison: 38 }).success).toBe(false);
    expect(parseDecimals.configSchema.safeParse({ decimal: { precision: 10, scale: 12 } }).success).toBe(false);
    expect(parseDecimals.configSchema.safeParse({ columns: { bogus: { precision: 10, scale: 2 } } }).success).toBe(false);
  });

  it('turns K-lines, trades and depth into typed rows', () => {
    const { output, rejected } = make().apply({ stream: 's', seq: 3, records: [kline, trade, depth] }, runContext());
    expect(rejected).toEqual([]);
    expect(output.seq).toBe(3);
    expect(output.records).toEqual([
      { code: 'SHIBUSDT', interval: '1m', ts: 1_763_535_600_000, open: '0.0000187123456', high: '0.00001872', low: '0.0000187', close: '0.0000187', volume: '123456789012345.123456789012345678', turnover: '2310.5', final: false, source: '/kline' },
      { code: 'UNH.US', ts: 1_677_831_545_380, seq: '30841440', price: '481.15', volume: '200', turnover: '96230', direction: 2, fetched_at: 1_677_831_546_000 },
      { code: 'US500', ts: 1_677_830_357_227, seq: '30686349', fetched_at: 1_677_830_358_000, bids: [{ price: '4001.5', volume: null }], asks: [{ price: '4002.25', volume: null }, { price: '4003', volume: '7' }] },
    ]);
  });

  it('rejects, never rounds, naming code, field and value', () => {
    const bad: RawKline[] = [
      { ...kline, bar: { ...kline.bar, close_price: '0.0000000000000000001' } },
      { ...kline, bar: { ...kline.bar, turnover: '1e5' } },
      { ...kline, bar: { ...kline.bar, timestamp: '17635356OO' } },
    ];
    const { output, rejected } = make().apply({ stream: 'kline/SHIBUSDT/1m', seq: 1, records: [...bad, kline] }, runContext());
    expect(output.records).toHaveLength(1);
    expect(rejected.map((r) => [r.code, r.field, r.value, r.stream])).toEqual([
      ['QL_DECIMAL_OVERFLOW', 'close_price', '0.0000000000000000001', 'kline/SHIBUSDT/1m'],
      ['QL_DECIMAL_MALFORMED', 'turnover', '1e5', 'kline/SHIBUSDT/1m'],
      ['QL_TIME_MALFORMED', 'timestamp', '17635356OO', 'kline/SHIBUSDT/1m'],
    ]);
    expect(rejected[0]!.reason).toBe('QL_DECIMAL_OVERFLOW: field close_price: "0.0000000000000000001" has 19 fractional digits, DECIMAL(38,18) keeps 18 (no rounding)');
    expect(rejected[1]!.reason).toContain('turnover');
    expect(rejected[1]!.reason).toContain('"1e5"');
    expect(rejected[0]!.record).toBe(bad[0]);
  });

  it('honours a narrower per-column type', () => {
    const t = make({ columns: { volume: { precision: 10, scale: 2 } } });
    const { rejected } = t.apply({ stream: 's', seq: 1, records: [trade, { ...trade, tick: { ...trade.tick, volume: '200.001' } }] }, runContext());
    expect(rejected.map((r) => [r.code, r.field])).toEqual([['QL_DECIMAL_OVERFLOW', 'volume']]);
  });

  it('a seq of digits longer than 40 is refused for its length, not called "not digits"; 40 is taken', () => {
    const digits = (n: number) => '1'.repeat(n);
    const { output, rejected } = make().apply({ stream: 's', seq: 1, records: [{ ...trade, tick: { ...trade.tick, seq: digits(45) } }, { ...trade, tick: { ...trade.tick, seq: digits(40) } }] }, runContext());
    expect(rejected.map((r) => [r.code, r.field, r.reason])).toEqual([['QL_SEQ_MALFORMED', 'seq', `QL_SEQ_MALFORMED: field seq: "${digits(45)}" has 45 digits, more than the 40 a sequence number may have`]]);
    expect(output.records).toHaveLength(1);
  });

  it('rejects a malformed seq, direction and depth level', () => {
    const { rejected } = make().apply(
      {
        stream: 's',
        seq: 1,
        records: [
          { ...trade, tick: { ...trade.tick, seq: '12a' } },
          { ...trade, tick: { ...trade.tick, trade_direction: 3 as never } },
          { ...depth, tick: { ...depth.tick, asks: [{ price: 'NaN' }] } },
        ],
      },
      runContext(),
    );
    expect(rejected.map((r) => [r.code, r.field, r.value])).toEqual([
      ['QL_SEQ_MALFORMED', 'seq', '12a'],
      ['QL_VALUE_MALFORMED', 'trade_direction', '3'],
      ['QL_DECIMAL_MALFORMED', 'asks[0].price', 'NaN'],
    ]);
  });

  it('takes what spec 2.2 and 2.3 leave optional: a book side absent or null is empty (limit-up), an absent direction is 0 (neutral)', () => {
    const { asks: _asks, ...bidsOnly } = depth.tick;
    const { trade_direction: _direction, ...neutral } = trade.tick;
    const { output, rejected } = make().apply(
      { stream: 's', seq: 1, records: [{ ...depth, tick: bidsOnly as never }, { ...depth, tick: { ...depth.tick, bids: null as never } }, { ...trade, tick: neutral as never }, { ...trade, tick: { ...trade.tick, trade_direction: null as never } }] },
      runContext(),
    );
    expect(rejected).toEqual([]);
    expect(output.records).toMatchObject([
      { code: 'US500', bids: [{ price: '4001.5', volume: null }], asks: [] },
      { code: 'US500', bids: [], asks: [{ price: '4002.25', volume: null }, { price: '4003', volume: '7' }] },
      { code: 'UNH.US', price: '481.15', direction: 0 },
      { code: 'UNH.US', price: '481.15', direction: 0 },
    ]);
    // A side that is there but not a list is still refused: it is no book.
    const bad = make().apply({ stream: 's', seq: 2, records: [{ ...depth, tick: { ...depth.tick, asks: 'none' as never } }] }, runContext());
    expect(bad.rejected.map((r) => [r.code, r.field, r.value])).toEqual([['QL_VALUE_MALFORMED', 'asks', 'none']]);
  });
});
