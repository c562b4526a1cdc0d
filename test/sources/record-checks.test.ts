/**
 * Issue 12, per-record validation through the real runtime: a fake service (the stub server)
 * answers pages holding one bad record of each kind; the rest of the page is stored, each bad
 * record lands in `_rejected/` with its code, and nothing fails the run.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { readKlineRows } from '../../src/coverage/index.js';
import { bar, ok, startStub } from '../api/helpers/stub-server.js';
import { run } from './helpers/run.js';
import { rejectedLines, startStubWorld } from './helpers/stub-world.js';

const NOW = '2026-03-03T05:10:00.000Z';
const sec = (iso: string) => Date.parse(iso) / 1000;
const at = (hhmm: string, day = '03') => sec(`2026-03-${day}T${hhmm}:00Z`);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(handler: Parameters<typeof startStub>[0]) {
  const world = await startStubWorld(NOW, handler);
  cleanup.push(() => world.close());
  return world;
}

const klinePipeline: PipelineInput = {
  name: 'btc-1h',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2026-03-02T20:00:00Z' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'parquet' },
  options: { onReject: 'divert' },
};

describe('per-record checks, K-lines through the runtime', () => {
  it('one bad bar of each kind is rejected by code; the rest of the page is stored', async () => {
    const page = [
      { ...bar(at('20:00', '02')), volume: '-5' },
      { ...bar(at('21:00', '02')), high_price: '0.90' },
      bar(at('22:00', '02')),
      null,
      bar(at('00:00')),
      bar(at('00:00')), // an identical repeat: de-duplicated, not rejected (R2)
      (({ turnover: _t, ...rest }) => rest)(bar(at('01:00'))),
      { ...bar(at('02:00')), open_price: 1.1 },
      { ...bar(at('03:00')), volume: null },
      { ...bar(at('04:00')), close_price: '1.25' },
      { ...bar(at('04:00')), close_price: '1.15' },
      bar(at('05:00')),
      bar(at('05:00') + 17),
      { ...bar(at('23:00', '02')), timestamp: String(at('23:00', '02') * 1000) },
      bar(at('06:00')), // opens 50 minutes after the answer: yet to come
      bar(sec('2100-01-01T00:00:00Z')),
    ];
    const { client, clock, outputDir, stub } = await setup((req, res) => {
      const end = (req.query?.data as { kline_timestamp_end?: number }).kline_timestamp_end ?? 0;
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: end === 0 ? page : [] });
    });
    const r = await run(klinePipeline, { client, clock, outputDir });
    expect(r.status).toBe('succeeded');
    expect(stub.requests).toHaveLength(1);
    const stored = (await readKlineRows(outputDir)).map((row) => new Date(row.ts).toISOString()).sort();
    expect(stored).toEqual(['2026-03-02T22:00:00.000Z', '2026-03-03T00:00:00.000Z', '2026-03-03T05:00:00.000Z']);
    const rejected = await rejectedLines(outputDir, 'kline');
    const got = rejected.map((l) => [l.code, l.field, l.value]).sort();
    expect(got).toEqual(
      [
        ['QL_NEGATIVE_AMOUNT', 'volume', '-5'],
        ['QL_OHLC_INCONSISTENT', 'low_price', '1'],
        ['QL_RECORD_MALFORMED', 'record', 'null'],
        ['QL_VALUE_MALFORMED', 'turnover', ''],
        ['QL_VALUE_MALFORMED', 'open_price', '1.1'],
        ['QL_VALUE_MALFORMED', 'volume', 'null'],
        ['QL_DUPLICATE_CONFLICT', 'timestamp', String(at('04:00'))],
        ['QL_DUPLICATE_CONFLICT', 'timestamp', String(at('04:00'))],
        ['QL_BAR_OFF_GRID', 'timestamp', String(at('05:00') + 17)],
        ['QL_TIME_UNIT', 'timestamp', String(at('23:00', '02') * 1000)],
        ['QL_BAR_IN_FUTURE', 'timestamp', String(at('06:00'))],
        ['QL_BAR_IN_FUTURE', 'timestamp', String(sec('2100-01-01T00:00:00Z'))],
      ].sort(),
    );
    for (const l of rejected) {
      expect(l.stream).toBe('kline/BTCUSDT/1h');
      expect(l.reason.startsWith(`${l.code}: field ${l.field}: `)).toBe(true);
    }
    // The record itself is kept beside its reason: here the bar missing its turnover.
    expect(rejected.find((l) => l.field === 'turnover')!.record).toMatchObject({ code: 'BTCUSDT', bar: { timestamp: String(at('01:00')) } });
    // A number or null sent where text belongs reads as such in the reason, never quoted like text.
    expect(rejected.find((l) => l.field === 'open_price')!.reason).toBe('QL_VALUE_MALFORMED: field open_price: 1.1 is not a string');
    expect(rejected.find((l) => l.field === 'volume' && l.code === 'QL_VALUE_MALFORMED')!.reason).toBe('QL_VALUE_MALFORMED: field volume: null is not a string');
    expect(rejected.find((l) => l.code === 'QL_RECORD_MALFORMED')!.reason).toBe('QL_RECORD_MALFORMED: field record: null is not an object');
    expect(r.manifest.rejected).toBe(12);
    expect(rejected.find((l) => l.value === String(at('06:00')))!.reason).toBe(
      'QL_BAR_IN_FUTURE: field timestamp: 2026-03-03T06:00:00.000Z is after the answer was received (2026-03-03T05:10:00.000Z)',
    );
  });

  it('a bar stamped 0 (an unset stamp) is rejected, not dropped as older than since, in an ordered answer too', async () => {
    const page = [{ ...bar(at('03:00')), timestamp: '0' }, { ...bar(at('03:00')), timestamp: '000' }, bar(at('04:00')), bar(at('05:00'))];
    const { client, clock, outputDir } = await setup((req, res) => {
      const end = (req.query?.data as { kline_timestamp_end?: number }).kline_timestamp_end ?? 0;
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: end === 0 ? page : [] });
    });
    await run(klinePipeline, { client, clock, outputDir });
    const stored = (await readKlineRows(outputDir)).map((row) => new Date(row.ts).toISOString()).sort();
    expect(stored).toEqual(['2026-03-03T04:00:00.000Z', '2026-03-03T05:00:00.000Z']);
    const rejected = await rejectedLines(outputDir, 'kline');
    expect(rejected.map((l) => [l.code, l.field, l.value, l.reason])).toEqual([
      ['QL_TIME_MALFORMED', 'timestamp', '0', 'QL_TIME_MALFORMED: field timestamp: "0" is the Unix epoch, a stamp left unset'],
      ['QL_TIME_MALFORMED', 'timestamp', '000', 'QL_TIME_MALFORMED: field timestamp: "000" is the Unix epoch, a stamp left unset'],
    ]);
  });

  it("a field that echoes the request's URL is rejected with the token redacted: it never reaches the file", async () => {
    const { client, clock, outputDir } = await setup((req, res) =>
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: [{ ...bar(at('04:00')), turnover: `http://x/kline?token=demo-professional&code=BTCUSDT` }, bar(at('05:00'))] }),
    );
    await run(klinePipeline, { client, clock, outputDir });
    const rejected = await rejectedLines(outputDir, 'kline');
    expect(rejected.map((l) => [l.code, l.field])).toEqual([['QL_DECIMAL_MALFORMED', 'turnover']]);
    expect(JSON.stringify(rejected)).not.toContain('demo-professional');
    expect(rejected[0]!.value).toBe('http://x/kline?token=demo…&code=BTCUSDT');
  });

  it('answers without a bar of the window (a code the service lacks, a service days behind) are said, not passed over', async () => {
    for (const list of [[], [bar(sec('2026-03-01T00:00:00Z'))]]) {
      const { client, clock, outputDir } = await setup((req, res) => ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: list }));
      const r = await run(klinePipeline, { client, clock, outputDir });
      expect(r.status).toBe('succeeded');
      expect(await readKlineRows(outputDir)).toEqual([]);
      expect(r.events.snapshot().notes).toEqual([
        'kline BTCUSDT 1h: the service sent no bar of 2026-03-02T20:00:00Z .. 2026-03-03T05:10:00Z, where the calendar has 10: nothing stored (is the code served, is the service up to date?)',
      ]);
    }
  });

  it('an answer for another code: its bars are rejected naming the echo, nothing is stored, the series is reported short', async () => {
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, { code: 'ETHUSDT', kline_type: 5, kline_list: [bar(at('04:00')), bar(at('05:00'))] });
    });
    const r = await run(klinePipeline, { client, clock, outputDir });
    expect(await readKlineRows(outputDir)).toEqual([]);
    const rejected = await rejectedLines(outputDir, 'kline');
    expect(rejected.map((l) => [l.code, l.field, l.value])).toEqual([
      ['QL_ECHO_MISMATCH', 'code', 'ETHUSDT'],
      ['QL_ECHO_MISMATCH', 'code', 'ETHUSDT'],
    ]);
    expect(rejected[0]!.reason).toContain('asked for "BTCUSDT"');
    expect(r.events.snapshot().shortfalls).toBe(1);
    expect(r.events.snapshot().notes.join('\n')).toContain('kline BTCUSDT 1h: the service sent an answer for "ETHUSDT"');
    // A library caller sees it in the result, without an events recorder of its own.
    expect([r.status, r.shortfalls]).toEqual(['succeeded', 1]);
    expect(r.notes).toEqual(r.events.snapshot().notes);
  });

  it('an answer for another kline_type is rejected the same way', async () => {
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: [bar(at('05:00'))] });
    });
    await run(klinePipeline, { client, clock, outputDir });
    expect(await readKlineRows(outputDir)).toEqual([]);
    expect((await rejectedLines(outputDir, 'kline')).map((l) => [l.code, l.field, l.value])).toEqual([['QL_ECHO_MISMATCH', 'kline_type', '1']]);
  });
});

describe('per-record checks, snapshots through the runtime', () => {
  it('a decimal with a sign, a blank or a letter in front names that character; one with no integer digit says so', async () => {
    const page = [
      { ...bar(at('01:00')), open_price: '+1.5' },
      { ...bar(at('02:00')), open_price: ' 1.5' },
      { ...bar(at('03:00')), open_price: 'x1' },
      { ...bar(at('04:00')), open_price: '.5' },
      bar(at('05:00')),
    ];
    const { client, clock, outputDir } = await setup((req, res) => {
      const end = (req.query?.data as { kline_timestamp_end?: number }).kline_timestamp_end ?? 0;
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: end === 0 ? page : [] });
    });
    await run(klinePipeline, { client, clock, outputDir });
    expect((await rejectedLines(outputDir, 'kline')).map((l) => l.reason)).toEqual([
      'QL_DECIMAL_MALFORMED: field open_price: "+1.5" is not a decimal (unexpected character at 0)',
      'QL_DECIMAL_MALFORMED: field open_price: " 1.5" is not a decimal (unexpected character at 0)',
      'QL_DECIMAL_MALFORMED: field open_price: "x1" is not a decimal (unexpected character at 0)',
      'QL_DECIMAL_MALFORMED: field open_price: ".5" is not a decimal (no integer digits)',
    ]);
  });

  it('a bar stamped beyond year 9999 is QL_TIME_MALFORMED, as documented, not a bar yet to come', async () => {
    const page = [{ ...bar(at('03:00')), timestamp: '253402300800' }, { ...bar(at('03:00')), timestamp: '999999999999' }, bar(at('04:00'))];
    const { client, clock, outputDir } = await setup((req, res) => {
      const end = (req.query?.data as { kline_timestamp_end?: number }).kline_timestamp_end ?? 0;
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 5, kline_list: end === 0 ? page : [] });
    });
    await run(klinePipeline, { client, clock, outputDir });
    const stored = (await readKlineRows(outputDir)).map((row) => new Date(row.ts).toISOString());
    expect(stored).toEqual(['2026-03-03T04:00:00.000Z']);
    const rejected = await rejectedLines(outputDir, 'kline');
    expect(rejected.map((l) => [l.code, l.field, l.value, l.reason]).sort()).toEqual([
      ['QL_TIME_MALFORMED', 'timestamp', '253402300800', 'QL_TIME_MALFORMED: field timestamp: "253402300800" is beyond year 9999 in Unix seconds'],
      ['QL_TIME_MALFORMED', 'timestamp', '999999999999', 'QL_TIME_MALFORMED: field timestamp: "999999999999" is beyond year 9999 in Unix seconds'],
    ]);
  });

  it('trade: a tick_time beyond year 9999 is QL_TIME_MALFORMED, as documented, not a tick yet to come', async () => {
    const good = { code: 'ETHUSDT', seq: '11', tick_time: String(Date.parse(NOW)), price: '2000.5', volume: '1', turnover: '2000.5', trade_direction: 1 };
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, { tick_list: [{ ...good, code: 'BTCUSDT', tick_time: '253402300800000' }, good] });
    });
    const r = await run(
      { name: 'trades', source: { type: 'trade-snapshot', codes: ['BTCUSDT', 'ETHUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.manifest.rows.trade).toMatchObject({ written: 1, rejected: 1 });
    expect((await rejectedLines(outputDir, 'trade')).map((l) => [l.code, l.field, l.value, l.reason])).toEqual([
      ['QL_TIME_MALFORMED', 'tick_time', '253402300800000', 'QL_TIME_MALFORMED: field tick_time: "253402300800000" is beyond year 9999 in Unix milliseconds'],
    ]);
  });

  it('trade: a tick_time in seconds or microseconds and a trade_direction of 7 are rejected; the good tick is stored', async () => {
    const good = { code: 'ETHUSDT', seq: '11', tick_time: String(Date.parse(NOW)), price: '2000.5', volume: '1', turnover: '2000.5', trade_direction: 1 };
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, {
        tick_list: [
          { ...good, code: 'BTCUSDT', tick_time: String(Date.parse(NOW) / 1000) },
          { ...good, code: 'SHIBUSDT', trade_direction: 7 },
          { ...good, code: 'GOLD', tick_time: `${Date.parse(NOW)}000` },
          good,
        ],
      });
    });
    const r = await run(
      { name: 'trades', source: { type: 'trade-snapshot', codes: ['BTCUSDT', 'SHIBUSDT', 'GOLD', 'ETHUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.manifest.rows.trade).toMatchObject({ written: 1, rejected: 3 });
    expect((await rejectedLines(outputDir, 'trade')).map((l) => [l.code, l.field, l.value]).sort()).toEqual(
      [
        ['QL_TIME_UNIT', 'tick_time', String(Date.parse(NOW) / 1000)],
        ['QL_TIME_UNIT', 'tick_time', `${Date.parse(NOW)}000`],
        ['QL_VALUE_MALFORMED', 'trade_direction', '7'],
      ].sort(),
    );
  });

  it('numbers a double cannot hold, sent where text belongs, are rejected as the service wrote them, never rounded', async () => {
    const good = { code: 'ETHUSDT', seq: '11', tick_time: String(Date.parse(NOW)), price: '2000.5', volume: '1', turnover: '2000.5', trade_direction: 1 };
    const { client, clock, outputDir } = await setup((req, res) => {
      const body = JSON.stringify({
        ret: 200,
        msg: 'ok',
        trace: req.query!.trace,
        data: { tick_list: [{ ...good, code: 'BTCUSDT', turnover: '@T' }, { ...good, code: 'SHIBUSDT', seq: '@S' }, { ...good, code: 'SOLUSDT', volume: '@V' }, good] },
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body.replace('"@T"', '12345678901234567890.5').replace('"@S"', '12345678901234567890123').replace('"@V"', '1E400'));
    });
    const r = await run(
      { name: 'trades', source: { type: 'trade-snapshot', codes: ['BTCUSDT', 'SHIBUSDT', 'SOLUSDT', 'ETHUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.manifest.rows.trade).toMatchObject({ written: 1, rejected: 3 });
    const root = join(outputDir, '_rejected', 'trade');
    const day = (await readdir(root))[0]!;
    const text = await readFile(join(root, day, (await readdir(join(root, day)))[0]!), 'utf8');
    const lines = (await rejectedLines(outputDir, 'trade')).map((l) => [l.code, l.field, l.value, l.reason]).sort();
    expect(lines).toEqual(
      [
        ['QL_VALUE_MALFORMED', 'turnover', '12345678901234567890.5', 'QL_VALUE_MALFORMED: field turnover: 12345678901234567890.5 is not a string'],
        ['QL_VALUE_MALFORMED', 'seq', '12345678901234567890123', 'QL_VALUE_MALFORMED: field seq: 12345678901234567890123 is not a string'],
        ['QL_VALUE_MALFORMED', 'volume', '1E400', 'QL_VALUE_MALFORMED: field volume: 1E400 is not a string'],
      ].sort(),
    );
    // The record beside it holds the number as sent, a JSON number still.
    expect(text).toContain('"turnover":12345678901234567890.5');
    expect(text).toContain('"seq":12345678901234567890123');
    expect(text).toContain('"volume":1E400');
  });

  it('depth: asks that are not a list are rejected; the good book is stored', async () => {
    const good = { code: 'ETHUSDT', seq: '11', tick_time: String(Date.parse(NOW)), bids: [{ price: '1', volume: '2' }], asks: [{ price: '1.5', volume: '3' }] };
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, { tick_list: [{ ...good, code: 'BTCUSDT', asks: 'nope' }, good] });
    });
    const r = await run(
      { name: 'books', source: { type: 'depth-snapshot', codes: ['BTCUSDT', 'ETHUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.manifest.rows.depth).toMatchObject({ written: 1, rejected: 1 });
    expect((await rejectedLines(outputDir, 'depth')).map((l) => [l.code, l.field, l.value])).toEqual([['QL_VALUE_MALFORMED', 'asks', 'nope']]);
  });

  it('depth: a level without a volume is rejected where the book carries volumes, and stored as NULL where it does not (US500)', async () => {
    const book = (code: string, volume: unknown) => ({ code, seq: '11', tick_time: String(Date.parse(NOW)), bids: [{ price: '1', volume: '2' }, { price: '0.9', volume }], asks: [{ price: '1.5', volume: '3' }] });
    const { client, clock, outputDir } = await setup((req, res) => {
      ok(res, req.query!.trace, { tick_list: [book('BTCUSDT', null), book('ETHUSDT', ''), book('US500', null)] });
    });
    const r = await run(
      { name: 'books', source: { type: 'depth-snapshot', codes: ['BTCUSDT', 'ETHUSDT', 'US500'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.manifest.rows.depth).toMatchObject({ written: 1, rejected: 2 });
    expect((await rejectedLines(outputDir, 'depth')).map((l) => [l.code, l.field, l.value, l.reason]).sort()).toEqual([
      ['QL_VALUE_MALFORMED', 'bids[1].volume', '', 'QL_VALUE_MALFORMED: field bids[1].volume: "" is empty: the book of ETHUSDT carries volumes (spec 2.2)'],
      ['QL_VALUE_MALFORMED', 'bids[1].volume', 'null', 'QL_VALUE_MALFORMED: field bids[1].volume: null is empty: the book of BTCUSDT carries volumes (spec 2.2)'],
    ]);
  });
});

describe('per-record checks, halts through the runtime', () => {
  it('a record that is not an object and a field that is not text are rejected by name; the good records and unknown fields of any type do not fail the page', async () => {
    const good = { symbol: 'AAA', symbolName: 'A Inc', haltReason: 'LUDP', haltDateTime: '2026-03-02 10:00:00', resumeDateTime: '2026-03-02 10:05:00', publishDate: '2026-03-02 10:00:01' };
    const other = { ...good, symbol: 'BBB', remark: { note: 'an unknown field of any type' } };
    const { client, clock, outputDir } = await setup((req, res) => {
      if (!req.url.pathname.endsWith('/nyse')) return ok(res, '', {});
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, timestamp: '2026-03-03T05:10:00', totalCount: 4, data: [good, null, { ...good, symbol: 'CCC', haltReason: 5 }, other] }));
    });
    const r = await run(
      { name: 'halts', source: { type: 'trading-halts', exchanges: ['nyse'] }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
      { client, clock, outputDir },
    );
    expect(r.status).toBe('succeeded');
    expect(r.manifest.rows.halt).toMatchObject({ written: 2, rejected: 2 });
    // A number or null reads as such in the reason, never quoted like text.
    expect((await rejectedLines(outputDir, 'halt')).map((l) => [l.code, l.field, l.value, l.reason]).sort()).toEqual(
      [
        ['QL_RECORD_MALFORMED', 'record', 'null', 'QL_RECORD_MALFORMED: field record: null is not an object'],
        ['QL_VALUE_MALFORMED', 'haltReason', '5', 'QL_VALUE_MALFORMED: field haltReason: 5 is not a string (every field of a halt record is text)'],
      ].sort(),
    );
  });
});
