import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let stand: Harness;
let real: Harness;
beforeAll(async () => {
  stand = await startHarness({ limits: false });
  real = await startHarness({ limits: false, backends: undefined });
});
afterAll(async () => {
  await stand.close();
  await real.close();
});

const RETS = new Set([200, 400, 600, 601, 604, 605]);

/** Documents that are JSON-ish around the real shapes, plus arbitrary text. */
const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('AAPL.US', 'EURUSD', 'BTCUSDT', 'aapl.us', '', '700.HK'),
);
const data = fc.record(
  {
    code: fc.oneof(value, fc.constantFrom('ETHUSDT', 'GOLD', 'USDJPY', 'SHIBUSDT', 'US500', '600000.SH')),
    kline_type: fc.oneof(fc.integer({ min: -2, max: 12 }), value),
    kline_timestamp_end: fc.oneof(
      fc.constant(0),
      fc.integer(),
      fc.integer({ min: 0, max: 4_000_000_000 }),
      fc.constantFrom(Number.MAX_SAFE_INTEGER, 1, 86_400, 1_763_535_660),
      value,
    ),
    query_kline_num: fc.oneof(fc.integer({ min: -1, max: 600 }), value),
    adjust_type: fc.oneof(fc.constant(0), value),
    symbol_list: fc.oneof(fc.array(fc.record({ code: value }, { requiredKeys: [] }), { maxLength: 8 }), value),
    data_list: fc.oneof(fc.array(fc.dictionary(fc.string(), value), { maxLength: 4 }), value),
  },
  { requiredKeys: [] },
);
const doc = fc.oneof(
  fc.record({ trace: fc.oneof(fc.string(), value), data: fc.oneof(data, value) }, { requiredKeys: [] }).map((d) => JSON.stringify(d)),
  fc.string({ maxLength: 300 }),
  fc.json({ maxDepth: 4 }),
);

describe.each([
  ['stand-in data', () => stand],
  ['the real catalog and synthetic market', () => real],
])('fuzzed requests (%s)', (_name, harness) => {
  it('every market-data answer is an envelope with a known ret, and the server keeps serving', async () => {
    const h = harness();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/quote-stock-b-api', '/quote-b-api'),
        fc.constantFrom('kline', 'depth-tick', 'trade-tick', 'batch-kline'),
        doc,
        async (prefix, op, text) => {
          const r =
            op === 'batch-kline'
              ? await h.raw(`${prefix}/batch-kline?token=demo-professional`, { method: 'POST', body: text })
              : await h.get(`${prefix}/${op}`, { token: 'demo-professional', query: text });
          expect(r.status).toBe(200);
          expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(RETS.has(r.json.ret)).toBe(true);
          expect(typeof r.json.msg).toBe('string');
          expect(typeof r.json.trace).toBe('string');
          if (r.json.ret !== 200) expect(r.json.data).toEqual({});
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
  });
});
