/**
 * R1: history ends only when a request for older bars returns none older. A series that begins
 * later than `since` (the service holds nothing older, or the product was listed later) is said so
 * per series, remembered in the checkpoint, and not walked down again by the next run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, manualSleep, seededRandom } from '../../src/api/index.js';
import { ManualClock } from '../../src/core/clock.js';
import type { EmulatorBackends } from '../../src/emulator/backends.js';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/server.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, realBackends } from './helpers/world.js';

const NOW = '2026-03-04T15:00:00.000Z';
const NOW_MS = Date.parse(NOW);
/** Where this service's BTCUSDT history begins, though the catalog lists it since 2017. */
const BEGINS_SEC = NOW_MS / 1000 - 86_400 - 37 * 60;

let emu: EmulatorHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  emu = undefined;
  dir = undefined;
});

async function setup(backends: EmulatorBackends) {
  const clock = new ManualClock(NOW);
  emu = await startEmulator({ clock, backends, log: () => {} });
  dir = await mkdtemp(join(tmpdir(), 'ql-begins-'));
  const client = createClient({ baseUrl: emu.url, token: 'demo-professional', plan: 'professional', stateDir: dir, clock, sleep: manualSleep(clock), retry: { random: seededRandom(1) } });
  const source = (since: string, codes = ['BTCUSDT'], intervals = ['1m']) =>
    klineHistory.create(klineHistoryConfigSchema.parse({ codes, intervals, since }), { outputDir: dir!, stateDir: dir!, stdout: process.stdout, client });
  return { clock, client, source };
}

describe('kline-history: where a series begins', () => {
  it('a service with no bar before a day ago: every bar it holds, "history begins at", no second walk', async () => {
    const real = realBackends();
    const market = {
      ...real.market,
      klines: (...args: Parameters<typeof real.market.klines>) => real.market.klines(...args).filter((b) => Number(b.timestamp) >= BEGINS_SEC),
      depth: real.market.depth.bind(real.market),
      trade: real.market.trade.bind(real.market),
    };
    const { clock, client, source } = await setup({ ...real, market });
    const since = new Date(NOW_MS - 3 * 86_400_000).toISOString();
    const first = await drain(source(since), clock);
    const ts = first.records.map((r) => Number(r.bar.timestamp)).sort((a, b) => a - b);
    // Every minute from where the service begins to now, once.
    expect(ts[0]).toBe(BEGINS_SEC);
    expect(new Set(ts).size).toBe(ts.length);
    expect(ts.length).toBe((NOW_MS / 1000 - BEGINS_SEC) / 60 + 1);
    expect(first.events.snapshot().notes).toEqual([
      `kline BTCUSDT 1m: history begins at ${new Date(BEGINS_SEC * 1000).toISOString().replace('.000Z', 'Z')}, after since ${since.replace('.000Z', 'Z')}: the service holds no older bar (not a gap)`,
    ]);
    const position = first.checkpoints.get('kline/BTCUSDT/1m')!.position;
    expect(position).toMatchObject({ low: BEGINS_SEC, begins: BEGINS_SEC });
    // A minute later: one request for the new bars; the empty past is not asked for again.
    clock.advance(60_000);
    const before = client.requestCounts()['/quote-b-api/kline']!;
    const second = await drain(source(since), clock, first.checkpoints);
    expect(client.requestCounts()['/quote-b-api/kline']! - before).toBe(1);
    expect(second.events.snapshot().notes).toEqual([]);
    expect(second.checkpoints.get('kline/BTCUSDT/1m')!.position).toMatchObject({ begins: BEGINS_SEC });
    await client.close();
  });

  it('since before the product was listed: the series begins at its listing, said once', async () => {
    const { clock, client, source } = await setup(realBackends());
    // TONUSDT is listed since 2024-08-08 (UTC); a year of 1d bars from 2024-08-01.
    const run = await drain(source('2024-08-01', ['TONUSDT'], ['1d']), clock);
    const ts = run.records.map((r) => Number(r.bar.timestamp)).sort((a, b) => a - b);
    expect(new Date(ts[0]! * 1000).toISOString()).toBe('2024-08-08T00:00:00.000Z');
    expect(run.events.snapshot().notes).toEqual([
      "kline TONUSDT 1d: history begins at 2024-08-08T00:00:00Z, with the product's listing on 2024-08-08, after since 2024-08-01T00:00:00Z (not a gap)",
    ]);
    await client.close();
  });

  it('a week or a month that opens before the listing: its bar (of the days since) is the series first, kept', async () => {
    const { clock, client, source } = await setup(realBackends());
    // TONUSDT was listed on Thursday 2024-08-08: its first week opens on Monday 2024-08-05, its
    // first month on 2024-08-01, and the service has a bar for each.
    const run = await drain(source('2024-07-01', ['TONUSDT'], ['1w', '1mo']), clock);
    const first = (interval: string) =>
      new Date(Math.min(...run.records.filter((r) => r.interval === interval).map((r) => Number(r.bar.timestamp))) * 1000).toISOString();
    expect(first('1w')).toBe('2024-08-05T00:00:00.000Z');
    expect(first('1mo')).toBe('2024-08-01T00:00:00.000Z');
    expect(run.events.snapshot().notes).toEqual([
      "kline TONUSDT 1w: history begins at 2024-08-05T00:00:00Z, with the product's listing on 2024-08-08, after since 2024-07-01T00:00:00Z (not a gap)",
      "kline TONUSDT 1mo: history begins at 2024-08-01T00:00:00Z, with the product's listing on 2024-08-08, after since 2024-07-01T00:00:00Z (not a gap)",
    ]);
    // The emulator's own series agree: nothing older exists.
    const served = await client.kline({ code: 'TONUSDT', klineType: 9, count: 500, endSec: Date.parse('2024-08-20T00:00:00Z') / 1000 });
    expect(served.bars.map((b) => new Date(Number(b.timestamp) * 1000).toISOString())[0]).toBe('2024-08-05T00:00:00.000Z');
    await client.close();
  });
});
