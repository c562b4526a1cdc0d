/**
 * Two codes' 1m history walked by kline-history against the emulator over HTTP (a week at
 * 2026-03-04), under service behaviours (R1, R2...), optionally killed after some batches and
 * resumed: the bars delivered, one text per bar (decimals as their values read), the requests sent
 * and the pages delivered. For the tests of how a walk meets a service's odd pages.
 */
import { afterEach } from 'vitest';
import type { Checkpoint } from '../../../src/core/component.js';
import type { RawKline } from '../../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from './world.js';

const NOW = '2026-03-04T15:00:30.000Z';
export const WALKED_CODES = ['BTCUSDT', 'EURUSD'];
const SINCE = '2026-02-25T00:00:00Z';
const UNTIL = '2026-03-04T14:59:00Z';

/** A decimal text as its value reads (number-forms may add or cut trailing zeros). */
const canon = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

const rowOf = (r: RawKline) =>
  [r.code, r.bar.timestamp, r.bar.open_price, r.bar.high_price, r.bar.low_price, r.bar.close_price, r.bar.volume, r.bar.turnover].map(canon).join(' ');

export interface Walked {
  /** Delivered bars, one text per bar, in delivery order per series. */
  readonly rows: string[];
  readonly requests: number;
  /** Pages the walks delivered bars from (one batch each). */
  readonly pages: number;
}

export const sorted = (rows: string[]) => [...rows].sort();

/** A walker for the enclosing suite; each test's worlds are closed after it. */
export function useWalks(): (seed: number, behaviours: string | undefined, cutAfter?: number) => Promise<Walked> {
  let worlds: World[] = [];
  afterEach(async () => {
    await Promise.all(worlds.map((w) => w.close()));
    worlds = [];
  });
  return async (seed, behaviours, cutAfter) => {
    const world = await startWorld(NOW, seed, behaviours);
    worlds.push(world);
    const config = klineHistoryConfigSchema.parse({ codes: WALKED_CODES, intervals: ['1m'], since: SINCE, until: UNTIL });
    const client = world.client();
    const src = klineHistory.create(config, world.env(client));
    let from: ReadonlyMap<string, Checkpoint> = new Map();
    const batches = [];
    if (cutAfter !== undefined) {
      // A run killed after some pages, resumed from what it committed.
      const first = await drain(src, world.clock, from, { maxBatches: cutAfter });
      batches.push(...first.batches);
      from = first.checkpoints;
    }
    batches.push(...(await drain(src, world.clock, from)).batches);
    const rows = batches.flatMap((b) => (b.records as RawKline[]).filter((r) => 'bar' in r).map(rowOf));
    const requests = Object.values(client.requestCounts()).reduce((a, b) => a + b, 0);
    return { rows, requests, pages: batches.filter((b) => b.records.length > 0).length };
  };
}
