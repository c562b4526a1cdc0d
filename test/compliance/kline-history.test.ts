/**
 * kline-history against every behaviour of decisions.md section R, over several seeds, through the
 * real runtime into Parquet: every bar the service held when the run started is stored once, with
 * its exact values, and the run says "succeeded" only when that is so.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProduct } from '../../src/catalog/index.js';
import { readKlineRows } from '../../src/coverage/index.js';
import type { KlineRow } from '../../src/core/records.js';
import { countBars, klineTypeOf } from '../../src/catalog/bar-grid.js';
import { BEHAVIOURS, duplicates, report, rowValues, wireValues, SEEDS, START, startConformance, type Conformance } from './helpers/conformance.js';

const START_MS = Date.parse(START);
const START_SEC = START_MS / 1000;
const SINCE_SEC = START_SEC - 2 * 86_400;
/** Walked back page by page: crypto (one sub-cent), forex; 1m spans several pages, 1h one. */
const WALKED = ['BTCUSDT', 'SHIBUSDT', 'EURUSD'] as const;
const INTERVALS = ['1m', '1h'] as const;

// Each seed has its own emulator, clock and folder: the seeds run at once (a run waits much on the
// disk and its encode workers); within a seed, in order (its tests share the seed's clock).
describe.concurrent.each(SEEDS)('kline-history conformance, seed %i', (seed) => {
  let c: Conformance;
  beforeAll(async () => {
    c = await startConformance(seed);
  });
  afterAll(async () => c?.close());

  it.sequential.each(BEHAVIOURS.map((b) => [b.name, b] as const))('%s: walked series complete, exact, no duplicate', async (_name, behaviour) => {
    c.clock.set(START_MS);
    const out = join(c.dir, `walk-${behaviour.name.replace(/\W+/g, '-')}`);
    const result = await c.run(behaviour, {
      name: 'conformance-walk',
      source: { type: 'kline-history', codes: [...WALKED], intervals: [...INTERVALS], since: new Date(SINCE_SEC * 1000).toISOString() },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet' },
    }, out);
    const rows = await readKlineRows(out);
    let missing = 0;
    let wrong = 0;
    for (const code of WALKED) {
      for (const interval of INTERVALS) {
        const held = rows.filter((r) => r.code === code && r.interval === interval);
        const byTs = new Map<number, KlineRow>(held.map((r) => [r.ts / 1000, r]));
        const token = c.tokenOf(behaviour);
        // Every bar closed when the run started must be there, final, with the service's values.
        const closed = c.emu.truth.klines(code, klineTypeOf(interval), SINCE_SEC, START_SEC, START_MS, { closedOnly: true, token });
        for (const bar of closed) {
          const row = byTs.get(Number(bar.timestamp));
          if (!row) missing++;
          else if (!row.final || rowValues(row) !== wireValues(bar)) wrong++;
        }
        // Nothing the service does not hold (a missing minute, a bar before since).
        const exists = new Set(c.emu.truth.klines(code, klineTypeOf(interval), SINCE_SEC, Math.floor(c.clock.now() / 1000), c.clock.now(), { token }).map((b) => Number(b.timestamp)));
        wrong += held.filter((r) => !exists.has(r.ts / 1000)).length;
      }
    }
    const dups = duplicates(rows.map((r) => `${r.code} ${r.interval} ${r.ts}`));
    const status = result.status;
    await report({ source: 'kline-history (walk)', behaviour: behaviour.name, seed, missing, duplicates: dups, wrong, status });
    expect({ missing, dups, wrong, status, rejected: result.manifest.rejected }).toEqual({ missing: 0, dups: 0, wrong: 0, status: 'succeeded', rejected: 0 });
  });

  it.sequential.each(BEHAVIOURS.map((b) => [b.name, b] as const))('%s: a stock gives its newest bars, none repeated, none wrong', async (_name, behaviour) => {
    c.clock.set(START_MS);
    const out = join(c.dir, `stock-${behaviour.name.replace(/\W+/g, '-')}`);
    const result = await c.run(behaviour, {
      name: 'conformance-stock',
      source: { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1m', '1d'], since: new Date((START_SEC - 86_400) * 1000).toISOString() },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet' },
    }, out);
    const rows = await readKlineRows(out);
    const token = c.tokenOf(behaviour);
    let missing = 0;
    let wrong = 0;
    for (const interval of ['1m', '1d'] as const) {
      const held = rows.filter((r) => r.interval === interval).sort((a, b) => a.ts - b.ts);
      const truth = c.emu.truth.klines('AAPL.US', klineTypeOf(interval), START_SEC - 86_400, START_SEC, START_MS, { closedOnly: true, token });
      // Without an end timestamp, history is what one newest page reaches (W4): the client asks for
      // the bars the calendar has since `since` (at most 500) and must get every one of them that exists.
      const want = Math.min(500, countBars(findProduct('AAPL.US')!, interval, (START_SEC - 86_400) * 1000, START_MS + 1, START_MS));
      const newest = c.emu.truth.klines('AAPL.US', klineTypeOf(interval), START_SEC - 10 * 86_400, START_SEC, START_MS, { token }).slice(-want);
      const from = Math.max(START_SEC - 86_400, Number(newest[0]?.timestamp ?? START_SEC));
      const byTs = new Map(held.map((r) => [r.ts / 1000, r]));
      for (const bar of truth.filter((b) => Number(b.timestamp) >= from)) {
        const row = byTs.get(Number(bar.timestamp));
        if (!row) missing++;
        else if (rowValues(row) !== wireValues(bar)) wrong++;
      }
    }
    const dups = duplicates(rows.map((r) => `${r.interval} ${r.ts}`));
    // A stock's page that stays short through every ask cannot be mended: the run must say so.
    const shortfalls = result.events.snapshot().shortfalls;
    const status = shortfalls > 0 ? 'incomplete' : result.status;
    await report({ source: 'kline-history (stock)', behaviour: behaviour.name, seed, missing, duplicates: dups, wrong, status });
    expect({ dups, wrong, status: result.status }).toEqual({ dups: 0, wrong: 0, status: 'succeeded' });
    expect(shortfalls > 0).toBe(missing > 0);
  });
});
