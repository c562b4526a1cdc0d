import { afterEach, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from './helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// A year of 1m bars: 1052 requests, about 8 s for the run and 4 s for the value check on this
// machine. QL_SHORT_TESTS=1 runs the same assertions over 60 days.
const DAYS = process.env.QL_SHORT_TESTS === '1' ? 60 : 365;

describe('kline-history: long crypto backfill', () => {
  it(`${DAYS} days of BTCUSDT 1m equal the emulator exactly, in ceil(bars/500) requests`, async () => {
    world = await startWorld('2026-03-02T15:00:00.000Z');
    const w = world;
    const startMs = w.clock.now();
    const sinceSec = startMs / 1000 - DAYS * 86_400;
    const client = w.client('professional');
    const src = klineHistory.create(
      klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: new Date(sinceSec * 1000).toISOString(), prefetchPages: Number(process.env.QL_PREFETCH ?? 4) }),
      w.env(client),
    );
    const t0 = Date.now();
    const run = await drain(src, w.clock);
    const elapsed = Date.now() - t0;
    const rows: RawKline[] = [...run.records].sort((a, b) => Number(a.bar.timestamp) - Number(b.bar.timestamp));
    // since is on a minute: DAYS x 1440 closed minutes plus the forming one at the start time.
    expect(rows.length).toBe(DAYS * 1440 + 1);
    expect(rows[0]!.bar.timestamp).toBe(String(sinceSec));
    expect(rows.at(-1)!.bar.timestamp).toBe(String(startMs / 1000));
    const product = findProduct('BTCUSDT')!;
    // Every value against the synthetic market, page by page (closed bars do not depend on "now").
    for (let i = rows.length - 1; i >= 0; i -= 500) {
      const end = Number(rows[i]!.bar.timestamp);
      const n = Math.min(500, i + 1);
      const truth = w.market.klines(product, 1, end, n, startMs);
      // As JSON text: one string comparison per page (a deep equality of 500 objects took most of the test's time).
      expect(JSON.stringify(rows.slice(i + 1 - n, i + 1).map((r) => r.bar))).toBe(JSON.stringify(truth));
    }
    const requests = client.requestCounts()['/quote-b-api/kline'];
    expect(requests).toBe(Math.ceil(rows.length / 500));
    if (process.env.QL_MEASURE === '1') console.log(`[measure] ${DAYS} days BTCUSDT 1m: ${rows.length} bars, ${requests} requests, ${elapsed} ms wall, ${(w.clock.now() - startMs) / 1000} s virtual`);
  }, 300_000);
});
