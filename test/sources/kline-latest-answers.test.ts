/**
 * kline-latest through the real runtime against /batch-kline answers a spec-valid service may give
 * and our emulator does not: a series left out (asked again, then named), and a series sent twice
 * in one answer (an identical repeat is one bar; two different bars under one stamp are rejected,
 * never one silently kept).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readKlineRows } from '../../src/coverage/index.js';
import { bar, ok } from '../api/helpers/stub-server.js';
import { run } from './helpers/run.js';
import { rejectedLines, startStubWorld, type StubWorld } from './helpers/stub-world.js';

const NOW = '2026-03-03T05:10:30.000Z';
const T = Date.parse('2026-03-03T05:09:00Z') / 1000;

interface Item {
  code: string;
  kline_type: number;
}
type Series = { code: string; kline_type: number; kline_data: unknown[] };

let world: StubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const both = (i: Item): Series => ({ code: i.code, kline_type: i.kline_type, kline_data: [bar(T - 60), bar(T)] });

async function runLatest(answer: (items: Item[], call: number) => Series[]) {
  let call = 0;
  world = await startStubWorld(NOW, (req, res) => {
    const body = JSON.parse(req.body) as { trace: string; data: { data_list: Item[] } };
    ok(res, body.trace, { kline_list: answer(body.data.data_list, call++) });
  });
  const { client, clock, outputDir } = world;
  const r = await run(
    { name: 'latest', source: { type: 'kline-latest', codes: ['BTCUSDT', 'ETHUSDT'], intervals: ['1m'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' }, options: { onReject: 'divert' } },
    { client, clock, outputDir },
  );
  const rows = (await readKlineRows(outputDir)).map((row) => `${row.code} ${new Date(row.ts).toISOString().slice(11, 16)} ${row.close}`).sort();
  return { r, rows, rejected: await rejectedLines(outputDir, 'kline'), asked: world.stub.requests.map((q) => (JSON.parse(q.body) as { data: { data_list: Item[] } }).data.data_list.map((i) => i.code)) };
}

describe('kline-latest: /batch-kline answers beyond the emulator', () => {
  it('a series left out is asked for again on its own, and delivered when it comes', async () => {
    const { r, rows, asked } = await runLatest((items, call) => items.filter((i) => call > 0 || i.code !== 'ETHUSDT').map(both));
    expect(asked).toEqual([['BTCUSDT', 'ETHUSDT'], ['ETHUSDT']]);
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2', 'ETHUSDT 05:08 1.2', 'ETHUSDT 05:09 1.2']);
    expect([r.status, r.shortfalls]).toEqual(['succeeded', 0]);
  });

  it('a series left out of every answer is asked for three times in all, then named: a shortfall (exit 4)', async () => {
    const { r, rows, asked } = await runLatest((items) => items.filter((i) => i.code !== 'ETHUSDT').map(both));
    expect(asked).toEqual([['BTCUSDT', 'ETHUSDT'], ['ETHUSDT'], ['ETHUSDT']]);
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2']);
    expect(r.shortfalls).toBe(1);
    expect(r.notes).toEqual(['kline-latest: no data returned for ETHUSDT kline_type 1 (asked three times); the other codes were delivered']);
  });

  it('every series left out of every answer: both named, and the note does not claim the others were delivered', async () => {
    const { r, rows } = await runLatest(() => []);
    expect(rows).toEqual([]);
    expect(r.shortfalls).toBe(2);
    expect(r.notes).toEqual(['kline-latest: no data returned for BTCUSDT kline_type 1, ETHUSDT kline_type 1 (asked three times); no code was delivered']);
  });

  it('a series sent twice with two different bars under one stamp: both rejected, none kept; an identical repeat is one bar', async () => {
    const { r, rows, rejected } = await runLatest((items) => [
      ...items.map(both),
      { code: 'BTCUSDT', kline_type: 1, kline_data: [{ ...bar(T - 60), close_price: '1.25' }, { ...bar(T), close_price: '1.20' }] },
    ]);
    expect(rows).toEqual(['BTCUSDT 05:09 1.2', 'ETHUSDT 05:08 1.2', 'ETHUSDT 05:09 1.2']);
    expect(rejected.map((l) => [l.stream, l.code, l.field, l.value])).toEqual([
      ['kline/BTCUSDT/1m', 'QL_DUPLICATE_CONFLICT', 'timestamp', String(T - 60)],
      ['kline/BTCUSDT/1m', 'QL_DUPLICATE_CONFLICT', 'timestamp', String(T - 60)],
    ]);
    expect(r.manifest.rows.kline).toMatchObject({ written: 3, merged: 0, rejected: 2 });
  });
});

describe('kline-latest: a series answered without a bar', () => {
  it('is asked for again like one left out, and named when it stays empty: a shortfall (exit 4), never a silent success', async () => {
    const { r, rows, asked } = await runLatest((items) => items.map((i) => (i.code === 'ETHUSDT' ? { ...both(i), kline_data: [] } : both(i))));
    expect(asked).toEqual([['BTCUSDT', 'ETHUSDT'], ['ETHUSDT'], ['ETHUSDT']]);
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2']);
    expect(r.shortfalls).toBe(1);
    expect(r.notes).toEqual(['kline-latest: no data returned for ETHUSDT kline_type 1 (asked three times); the other codes were delivered']);
  });
});

describe('kline-latest: an element of the series list that is not a series', () => {
  it('is left out and named, the other series stored, and its item asked again and delivered', async () => {
    const { r, rows, asked } = await runLatest((items, call) =>
      items.map((i) => (call === 0 && i.code === 'ETHUSDT' ? { ...both(i), kline_type: '1' } : both(i))) as Series[],
    );
    expect(asked).toEqual([['BTCUSDT', 'ETHUSDT'], ['ETHUSDT']]);
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2', 'ETHUSDT 05:08 1.2', 'ETHUSDT 05:09 1.2']);
    expect([r.status, r.shortfalls]).toEqual(['succeeded', 0]);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(
      /^kline-latest: \/quote-b-api\/batch-kline answered an element of its series list that is not a series, left out \(the item it stood for was asked again\): kline_list\[1\]\.kline_type: .+; sent \{"code":"ETHUSDT","kline_type":"1","kline_data":\[/,
    );
  });

  it('sent for good (bars not a list, no code): named once each, and the item not delivered is a shortfall (exit 4)', async () => {
    const { r, rows } = await runLatest((items) => [...items.filter((i) => i.code !== 'ETHUSDT').map(both), { code: 'ETHUSDT', kline_type: 1, kline_data: 'none' }, { kline_type: 1, kline_data: [] }] as Series[]);
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2']);
    expect(r.shortfalls).toBe(1);
    expect(r.notes.filter((n) => n.includes('not a series')).map((n) => n.replace(/^.*not a series[^:]*: /, '').replace(/: .*; sent/, '; sent'))).toEqual([
      'kline_list[1].kline_data; sent {"code":"ETHUSDT","kline_type":1,"kline_data":"none"}',
      'kline_list[2].code; sent {"kline_type":1,"kline_data":[]}',
    ]);
    expect(r.notes).toContain('kline-latest: no data returned for ETHUSDT kline_type 1 (asked three times); the other codes were delivered');
  });
});

describe('kline-latest: a series answered with fewer bars than asked', () => {
  it('one bar of the latest two, where the product has more: the forming bar held before stays stale, so it is a shortfall (exit 4)', async () => {
    const { r, rows } = await runLatest((items) => items.map((i) => (i.code === 'ETHUSDT' ? { ...both(i), kline_data: [bar(T)] } : both(i))));
    expect(rows).toEqual(['BTCUSDT 05:08 1.2', 'BTCUSDT 05:09 1.2', 'ETHUSDT 05:09 1.2']);
    expect(r.shortfalls).toBe(1);
    expect(r.notes).toEqual(['kline-latest kline/ETHUSDT/1m: the service gave 1 of the latest 2 bars; the bar before the newest was not delivered (run kline-history to fetch it)']);
  });

  it('one bar where only one exists yet (the first minute after listing) is complete', async () => {
    const listed = Date.parse('2017-08-17T00:00:00Z') / 1000;
    const answer = (items: Item[]) => items.map((i) => ({ ...both(i), kline_data: [bar(listed)] }));
    world = await startStubWorld('2017-08-17T00:00:30.000Z', (req, res) => {
      const body = JSON.parse(req.body) as { trace: string; data: { data_list: Item[] } };
      ok(res, body.trace, { kline_list: answer(body.data.data_list) });
    });
    const { client, clock, outputDir } = world;
    const r = await run(
      { name: 'latest', source: { type: 'kline-latest', codes: ['BTCUSDT'], intervals: ['1m'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } },
      { client, clock, outputDir },
    );
    expect([r.shortfalls, r.notes, r.manifest.rows.kline?.written]).toEqual([0, [], 1]);
  });
});
