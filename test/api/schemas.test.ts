import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  batchKlineDataSchema,
  depthDataSchema,
  haltErrorSchema,
  haltResponseSchema,
  klineDataSchema,
  marketEnvelopeSchema,
  tradeDataSchema,
} from '../../src/api/schemas.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/api/${name}`, import.meta.url), 'utf8'));

describe('response schemas accept every documented example', () => {
  it.each([
    ['kline-stock.json', klineDataSchema],
    ['kline-crypto.json', klineDataSchema],
    ['depth-tick.json', depthDataSchema],
    ['trade-tick.json', tradeDataSchema],
    ['batch-kline.json', batchKlineDataSchema],
  ] as const)('%s', (name, schema) => {
    const envelope = marketEnvelopeSchema.parse(fixture(name));
    expect(envelope.ret).toBe(200);
    const data = schema.parse(envelope.data) as Record<string, unknown>;
    expect(data).toEqual((fixture(name) as { data: unknown }).data);
  });

  it('keeps prices as the wire strings', () => {
    const env = marketEnvelopeSchema.parse(fixture('kline-crypto.json'));
    const data = klineDataSchema.parse(env.data);
    expect(data.kline_list[0]?.turnover).toBe('1175337.4468315');
    expect(data.kline_list[0]?.volume).toBe('12.84510');
  });

  it('error-market.json parses as an envelope with ret 600', () => {
    expect(marketEnvelopeSchema.parse(fixture('error-market.json'))).toMatchObject({ ret: 600, msg: 'code invalid' });
  });

  it.each(['suspension-sse.json', 'suspension-nyse.json', 'suspension-nasdaq.json', 'suspension-paged.json'])(
    '%s',
    (name) => {
      const parsed = haltResponseSchema.parse(fixture(name));
      expect(parsed).toEqual(fixture(name));
    },
  );

  it('error-suspension.json', () => {
    expect(haltErrorSchema.parse(fixture('error-suspension.json')).error).toBe('Error description');
  });

  it('checks the containers, not the records: a number where the wire has a string passes on (parse-decimals rejects it)', () => {
    const record = { timestamp: 1, open_price: '1', close_price: '1', high_price: '1', low_price: '1', volume: '1', turnover: '1' };
    expect(klineDataSchema.parse({ code: 'X', kline_type: 1, kline_list: [record] }).kline_list).toEqual([record]);
    expect(klineDataSchema.safeParse({ code: 'X', kline_type: 1, kline_list: { 0: record } }).success).toBe(false);
    expect(klineDataSchema.safeParse({ code: 1, kline_type: 1, kline_list: [] }).success).toBe(false);
    expect(tradeDataSchema.safeParse({ tick_list: 'nope' }).success).toBe(false);
  });
});
