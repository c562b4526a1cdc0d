/**
 * The /kline page scanner (src/api/kline-page-scan.ts) is a hand-written codec: held to a
 * library's bar (design.md) by a seeded differential fuzz test against three independent readers
 * of the same text, on random and adversarial pages (keys reordered, whitespace, unicode escapes,
 * non-ASCII text, unknown and repeated keys, 38-digit and 18-place decimals, sub-cent values,
 * negatives, zeros, exponents and other non-decimals, non-string values, empty lists, repeated
 * bars, other `ret`s, truncated and trailing text):
 *
 * 1. JSON.parse + the zod schemas (the path the client takes when the scanner declines): whenever
 *    the scanner takes a page, that path takes it too with the same data, field for field and in
 *    the same key order; whenever that path fails or says another `ret`, the scanner declines.
 *    Every folded decimal's words and canonical text equal parseDecimalWords' for the column types
 *    they answer for, and none is handed out for a type they do not.
 * 2. lossless-json: the same strings and integers.
 * 3. DuckDB read_json (columns VARCHAR, and the decimals cast to DECIMAL(38,18)): the same text
 *    and the same exact unscaled value of every folded decimal.
 *
 * Fixed seed, a few hundred pages (well under a second plus DuckDB); QL_FUZZ_RUNS and QL_FUZZ_SEED
 * raise or vary them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { scanKlinePage, type ScannedKlineData } from '../../src/api/kline-page-scan.js';
import { klineDataSchema, marketEnvelopeSchema } from '../../src/api/schemas.js';
import { DEFAULT_DECIMAL, parseDecimalWords, wordsToBigInt, type DecimalType } from '../../src/core/decimal.js';
import { BatchWords, KLINE_DECIMALS, RowWithWords } from '../../src/core/carried-words.js';
import { ScannedBar } from '../../src/core/scanned-bar.js';
import type { WireKline } from '../../src/core/wire.js';
import { parseKline, type ColumnTypes } from '../../src/transforms/parse-decimals/parse-rows.js';
import { prng } from '../lake/random-tables.js';
import { tempDir } from '../sinks/helpers.js';

const RUNS = Number(process.env.QL_FUZZ_RUNS ?? 600);
const SEED = Number(process.env.QL_FUZZ_SEED ?? 20261124);

const BAR_KEYS = ['timestamp', 'open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;
/** KLINE_DECIMALS order (the words' slots) → wire key. */
const SLOT_KEYS = ['open_price', 'high_price', 'low_price', 'close_price', 'volume', 'turnover'] as const;
const TYPES: readonly DecimalType[] = [DEFAULT_DECIMAL, { precision: 20, scale: 18 }, { precision: 19, scale: 18 }, { precision: 38, scale: 8 }, { precision: 18, scale: 0 }];

type Rnd = () => number;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const digits = (rnd: Rnd, n: number, leadNonZero = false): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += String(i === 0 && leadNonZero ? 1 + Math.floor(rnd() * 9) : Math.floor(rnd() * 10));
  return s;
};

const ODD = ['1e5', '1.5E-3', '2e+2', '+1', '.5', '5.', '', 'abc', '007', '00.5', '1.2.3', ' 1', '1 ', '--1', '-', '1_000', '0x10', 'NaN', 'Infinity', '-.5', '0.'];

/** A decimal as the wire may carry it, common forms most of the time. */
function decimalText(rnd: Rnd): string {
  const r = rnd();
  if (r < 0.45) {
    const int = digits(rnd, 1 + Math.floor(rnd() * 6), true);
    const frac = rnd() < 0.2 ? '' : `.${digits(rnd, 1 + Math.floor(rnd() * 8))}${rnd() < 0.3 ? '00' : ''}`;
    return int + frac;
  }
  if (r < 0.52) return `0.${digits(rnd, 1 + Math.floor(rnd() * 18))}`; // sub-cent, up to 18 places
  if (r < 0.57) return `${digits(rnd, 20, true)}.${digits(rnd, 18)}`; // 38 digits
  if (r < 0.62) return `${digits(rnd, 1 + Math.floor(rnd() * 14), true)}.${digits(rnd, 1)}`; // up to 15 digits
  if (r < 0.66) return `${digits(rnd, 8, true)}.${digits(rnd, 8)}`; // 16 digits: folded through their text
  if (r < 0.7) return `0.${digits(rnd, 19)}`; // 19 places: past the scale
  if (r < 0.76) return pick(rnd, ['0', '0.0', '0.000', '-0', '-0.00', '0.000000000000000001', '99999999999999999999.999999999999999999']);
  if (r < 0.8) return `-${digits(rnd, 1 + Math.floor(rnd() * 5), true)}.${digits(rnd, 1 + Math.floor(rnd() * 6))}`;
  if (r < 0.84) {
    // 13 to 15 digits split anywhere: either part past 9 digits (the scanner's 32-bit folding) or not.
    const total = 13 + Math.floor(rnd() * 3);
    const int = 1 + Math.floor(rnd() * (total - 1));
    return `${rnd() < 0.3 ? '-' : ''}${digits(rnd, int, true)}.${digits(rnd, total - int)}${rnd() < 0.3 ? '0' : ''}`;
  }
  return pick(rnd, ODD);
}

interface Style {
  ws: boolean;
  shuffle: boolean;
}

function ws(rnd: Rnd, style: Style): string {
  if (!style.ws || rnd() < 0.5) return '';
  return pick(rnd, [' ', '\n', '\t', '\r\n', '  ']);
}

function shuffled<T>(rnd: Rnd, xs: T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** An object from [key, raw JSON value] members. */
function object(rnd: Rnd, style: Style, members: [string, string][]): string {
  const ordered = style.shuffle && rnd() < 0.5 ? shuffled(rnd, members) : members;
  return `{${ws(rnd, style)}${ordered.map(([k, v]) => `${JSON.stringify(k)}${ws(rnd, style)}:${ws(rnd, style)}${v}${ws(rnd, style)}`).join(',')}}`;
}

/** A string literal, now and then with a character written as a unicode escape. */
function str(rnd: Rnd, text: string, escapes: boolean): string {
  const json = JSON.stringify(text);
  if (!escapes || text.length === 0 || rnd() < 0.7) return json;
  const at = Math.floor(rnd() * text.length);
  const escaped = `\\u${text.charCodeAt(at).toString(16).padStart(4, '0')}`;
  return JSON.stringify(text.slice(0, at)).slice(0, -1) + escaped + JSON.stringify(text.slice(at + 1)).slice(1);
}

/** A bar's timestamp: Unix seconds mostly, sometimes milliseconds, padded, too long or no number at all. */
function timestampText(rnd: Rnd, ts: string): string {
  const r = rnd();
  if (r < 0.03) return pick(rnd, ODD);
  if (r < 0.05) return pick(rnd, [`${ts}000`, `00${ts}`, '999999999999', '9999999999999', '0', ts.slice(0, 3)]);
  return ts;
}

function barMembers(rnd: Rnd, escapes: boolean, adversarial: boolean): [string, string][] {
  const ts = String(1_763_500_000 + 60 * Math.floor(rnd() * 1000));
  return BAR_KEYS.map((k): [string, string] => {
    if (adversarial && rnd() < 0.005) return [k, pick(rnd, ['1.5', 'null', 'true', '{}', '[]', '123'])]; // not a string
    if (adversarial && rnd() < 0.005) return [k, JSON.stringify(pick(rnd, ['١٢', '1²', '𝟙.5', '1.5é']))]; // not ASCII
    return [k, str(rnd, k === 'timestamp' ? timestampText(rnd, ts) : decimalText(rnd), escapes)];
  });
}

/** A random page: clean most of the time, with one or more adversarial changes otherwise. */
function randomPage(rnd: Rnd): string {
  const adversarial = rnd() < 0.45;
  const style: Style = { ws: rnd() < 0.3, shuffle: rnd() < 0.3 };
  const escapes = adversarial && rnd() < 0.2;
  const count = rnd() < 0.08 ? 0 : Math.floor(rnd() * 40);
  const bars: string[] = [];
  for (let i = 0; i < count; i++) {
    const members = barMembers(rnd, escapes, adversarial);
    if (adversarial && rnd() < 0.03) members.push(['extra', '"x"']);
    if (adversarial && rnd() < 0.03) members.push([pick(rnd, BAR_KEYS), '"1"']); // repeated key
    if (adversarial && rnd() < 0.02) members.splice(Math.floor(rnd() * members.length), 1); // missing field
    const bar = adversarial && rnd() < 0.01 ? pick(rnd, ['null', '"bar"', '[]', '1']) : object(rnd, style, members);
    bars.push(bar);
    if (rnd() < 0.05) bars.push(bar); // a repeated bar
  }
  const code = adversarial && rnd() < 0.1 ? pick(rnd, ['BTCUSDT', 'é', '日本', 'A"B', 'a\\b', '']) : pick(rnd, ['BTCUSDT', 'EURUSD', 'GOLD', 'Silver', '700.HK']);
  const klineType = adversarial && rnd() < 0.1 ? pick(rnd, ['1.0', '1e0', '01', '-1', '"1"', '0', '9007199254740993']) : String(1 + Math.floor(rnd() * 10));
  const list = adversarial && rnd() < 0.03 ? pick(rnd, ['null', '{}', '"[]"']) : `[${ws(rnd, style)}${bars.join(`,${ws(rnd, style)}`)}${ws(rnd, style)}]`;
  const dataMembers: [string, string][] = [
    ['code', str(rnd, code, escapes)],
    ['kline_type', klineType],
    ['kline_list', list],
  ];
  if (adversarial && rnd() < 0.05) dataMembers.push(['extra', '[1,{"a":null}]']);
  if (adversarial && rnd() < 0.03) dataMembers.splice(Math.floor(rnd() * 3), 1);
  const ret = adversarial && rnd() < 0.1 ? pick(rnd, ['429', '400', '200.0', '2e2', '-200', '"200"']) : '200';
  const envelope: [string, string][] = [
    ['ret', ret],
    ['msg', str(rnd, adversarial && rnd() < 0.05 ? pick(rnd, ['ok é', 'rate limit', 'a\u0001b']) : 'ok', escapes)],
    ['trace', str(rnd, adversarial && rnd() < 0.05 ? 'trace-日本' : `t-${Math.floor(rnd() * 1e6)}`, escapes)],
    ['data', adversarial && rnd() < 0.02 ? 'null' : object(rnd, style, dataMembers)],
  ];
  if (adversarial && rnd() < 0.1) envelope.splice(1 + Math.floor(rnd() * 3), 1); // no msg, trace or data
  if (adversarial && rnd() < 0.05) envelope.push(['extra', '{"nested":[1,2]}']);
  if (adversarial && rnd() < 0.03) envelope.push(['ret', '200']); // repeated key
  let text = ws(rnd, style) + object(rnd, style, envelope) + ws(rnd, style);
  if (adversarial && rnd() < 0.05) text = text.slice(0, Math.floor(rnd() * text.length)); // truncated
  if (adversarial && rnd() < 0.03) text += pick(rnd, ['x', ',', '{}', '\u0000']); // trailing text
  // A raw control character inside a string (invalid JSON).
  if (adversarial && rnd() < 0.02) text = text.replace('"ok"', '"o\tk"');
  return text;
}

/** What the client's schema path makes of the text: the data when it is a ret-200 /kline answer, else undefined. */
function schemaPath(text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const envelope = marketEnvelopeSchema.safeParse(body);
  if (!envelope.success || envelope.data.ret !== 200) return undefined;
  const data = klineDataSchema.safeParse(envelope.data.data);
  return data.success ? data.data : undefined;
}

function checkWords(page: ScannedKlineData): number {
  let folded = 0;
  const got = new Uint32Array(4);
  const want = new Uint32Array(4);
  for (const bar of page.kline_list) {
    // The scanner's number for the timestamp: the text's value when it is 1 to 12 digits, else -1.
    const stamp = /^\d{1,12}$/.test(bar.timestamp) ? Number(bar.timestamp) : -1;
    if (ScannedBar.stampOf(bar) !== stamp) expect({ timestamp: bar.timestamp, scanned: ScannedBar.stampOf(bar) }).toEqual({ timestamp: bar.timestamp, scanned: stamp });
    for (let k = 0; k < SLOT_KEYS.length; k++) {
      const text = bar[SLOT_KEYS[k]!];
      for (const type of TYPES) {
        got.fill(0xdeadbeef);
        const taken = ScannedBar.takeDecimal(bar, k, text, type, got, 0);
        if (taken === undefined) continue;
        if (type === DEFAULT_DECIMAL) folded++;
        const canonical = parseDecimalWords(text, type, want, 0);
        // One expect per difference only: hundreds of thousands of values are compared.
        if (type.scale !== 18 || taken !== canonical || got.some((w, j) => w !== want[j])) {
          expect({ text, type, taken, words: [...got] }).toEqual({ text, type: { precision: type.precision, scale: 18 }, taken: canonical, words: [...want] });
        }
      }
    }
  }
  return folded;
}

/** Column types the rows are parsed at: the scanner's words answer for the first two wholly, for the others in part or not at all. */
const ROW_TYPES: readonly ColumnTypes[] = [
  columnTypes(DEFAULT_DECIMAL),
  columnTypes({ precision: 20, scale: 18 }),
  { ...columnTypes(DEFAULT_DECIMAL), turnover: { precision: 19, scale: 18 } },
  { ...columnTypes(DEFAULT_DECIMAL), volume: { precision: 38, scale: 8 } },
];

function columnTypes(type: DecimalType): ColumnTypes {
  return { open: type, high: type, low: type, close: type, volume: type, turnover: type, price: type };
}

/**
 * parse-decimals makes the same row, or the same rejection, of a scanned bar (words taken from the
 * scanner) as of the schema path's plain bar (words read from the text), and the row carries the
 * same words. Returns how many rows of the default types were compared.
 */
function checkRows(page: ScannedKlineData, reference: { code: string; kline_list: Record<string, string>[] }): number {
  let compared = 0;
  const got = [0, 1, 2, 3, 4, 5].map(() => new Uint32Array(4));
  const want = [0, 1, 2, 3, 4, 5].map(() => new Uint32Array(4));
  for (const types of ROW_TYPES) {
    const scales = KLINE_DECIMALS.map((c) => types[c].scale);
    const scannedWords = new BatchWords(page.kline_list.length, scales);
    const plainWords = new BatchWords(page.kline_list.length, scales);
    page.kline_list.forEach((bar, i) => {
      const raw = (b: WireKline) => ({ code: page.code, interval: '1m' as const, bar: b, final: true, source: '/kline' });
      const scanned = parseKline(raw(bar), types, scannedWords, i);
      const plain = parseKline(raw(reference.kline_list[i] as unknown as WireKline), types, plainWords, i);
      if (JSON.stringify(scanned) !== JSON.stringify(plain)) expect({ bar, types, row: scanned }).toEqual({ bar, types, row: plain });
      if ('failure' in plain) return;
      for (const g of got) g.fill(0xdeadbeef);
      const hasWords = RowWithWords.copyAllWords(scanned, types.open.scale, got, 0);
      expect(RowWithWords.copyAllWords(plain, types.open.scale, want, 0)).toBe(hasWords);
      if (!hasWords) return;
      if (types === ROW_TYPES[0]) compared++;
      if (got.some((g, k) => g.some((w, j) => w !== want[k]![j]))) expect({ bar, types, words: got.map((g) => [...g]) }).toEqual({ bar, types, words: want.map((g) => [...g]) });
    });
  }
  return compared;
}

function checkLossless(text: string, page: ScannedKlineData): void {
  const body = losslessParse(text) as { ret: { toString(): string }; data: { code: string; kline_type: { toString(): string }; kline_list: Record<string, unknown>[] } };
  expect(Number(body.ret.toString())).toBe(200);
  expect(body.data.code).toBe(page.code);
  expect(Number(body.data.kline_type.toString())).toBe(page.kline_type);
  expect(body.data.kline_list.length).toBe(page.kline_list.length);
  body.data.kline_list.forEach((bar, i) => {
    for (const key of BAR_KEYS) expect(bar[key]).toBe(page.kline_list[i]![key]);
  });
}

/** The exact unscaled value (at scale 18) of DuckDB's DECIMAL(38,18) text. */
function unscaled18(text: string): bigint {
  const neg = text.startsWith('-');
  const [int, frac = ''] = (neg ? text.slice(1) : text).split('.');
  const v = BigInt(int! + frac.padEnd(18, '0'));
  return neg ? -v : v;
}

describe('the /kline page scanner against three independent readers', () => {
  it(`takes exactly what JSON.parse + zod, lossless-json and DuckDB read, with the same values (${RUNS} pages, seed ${SEED})`, async () => {
    const rnd = prng(SEED);
    const taken: { text: string; page: ScannedKlineData }[] = [];
    let declined = 0;
    let folded = 0;
    let rowsCompared = 0;
    for (let run = 0; run < RUNS; run++) {
      const text = randomPage(rnd);
      const scanned = scanKlinePage(text);
      const reference = schemaPath(text);
      if (scanned === undefined) {
        declined++;
        continue;
      }
      expect(reference, `the scanner took a page the schema path does not: ${text.slice(0, 300)}`).toBeDefined();
      // Same data, same fields, same key order (what a rejected bar is stored as).
      expect(JSON.stringify(scanned)).toBe(JSON.stringify(reference));
      folded += checkWords(scanned);
      rowsCompared += checkRows(scanned, reference as { code: string; kline_list: Record<string, string>[] });
      checkLossless(text, scanned);
      taken.push({ text, page: scanned });
    }
    // Both ways are exercised: most clean pages are taken, the adversarial ones often declined.
    expect(taken.length).toBeGreaterThan(RUNS * 0.4);
    expect(declined).toBeGreaterThan(RUNS * 0.1);
    expect(folded).toBeGreaterThan(1000);
    expect(rowsCompared).toBeGreaterThan(20);

    // DuckDB reads the very texts the scanner took.
    const dir = await tempDir('ql-scan-fuzz-');
    const file = join(dir, 'pages.json');
    await writeFile(file, `[${taken.map((t, i) => `{"page":${i},"body":${t.text}}`).join(',\n')}]`);
    const db = await DuckDBInstance.create();
    const connection = await db.connect();
    const barType = `STRUCT(${BAR_KEYS.map((k) => `${k} VARCHAR`).join(', ')})`;
    const columns = `{page: 'INTEGER', body: 'STRUCT(ret INTEGER, data STRUCT(code VARCHAR, kline_type BIGINT, kline_list ${barType}[]))'}`;
    const casts = SLOT_KEYS.map((k) => `try_cast(b.${k} AS DECIMAL(38,18))::VARCHAR AS ${k}_d`).join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT page, i, b.*, ${casts} FROM (
         SELECT page, unnest(range(len(body.data.kline_list))) AS i, unnest(body.data.kline_list) AS b
         FROM read_json('${file}', format = 'array', columns = ${columns})
       ) ORDER BY page, i`,
    );
    const rows = reader.getRowObjectsJS() as Record<string, unknown>[];
    expect(rows.length).toBe(taken.reduce((n, t) => n + t.page.kline_list.length, 0));
    const heads = (await connection.runAndReadAll(`SELECT page, body.ret AS ret, body.data.code AS code, body.data.kline_type AS kt FROM read_json('${file}', format = 'array', columns = ${columns}) ORDER BY page`)).getRowObjectsJS();
    heads.forEach((h, p) => {
      expect(h.ret).toBe(200);
      expect(h.code).toBe(taken[p]!.page.code);
      expect(Number(h.kt)).toBe(taken[p]!.page.kline_type);
    });
    const words = new Uint32Array(4);
    let compared = 0;
    for (const row of rows) {
      const bar = taken[Number(row.page)]!.page.kline_list[Number(row.i)]!;
      for (const key of BAR_KEYS) if (row[key] !== bar[key]) expect(row[key]).toBe(bar[key]);
      SLOT_KEYS.forEach((key, k) => {
        if (ScannedBar.takeDecimal(bar, k, bar[key], DEFAULT_DECIMAL, words, 0) === undefined) return;
        const cast = row[`${key}_d`];
        if (typeof cast !== 'string' || wordsToBigInt(words, 0) !== unscaled18(cast)) {
          expect({ text: bar[key], cast }).toEqual({ text: bar[key], cast: wordsToBigInt(words, 0).toString() });
        }
        compared++;
      });
    }
    expect(compared).toBe(folded);
    connection.closeSync();
  });

  it('makes the rows and rejections of the plain path from scanned bars, with the same words', () => {
    const bar = (t: number, open: string, high: string, low: string, close: string, volume = '1.50', turnover = '100') =>
      `{"timestamp":"${t}","open_price":"${open}","close_price":"${close}","high_price":"${high}","low_price":"${low}","volume":"${volume}","turnover":"${turnover}"}`;
    const bars = [
      bar(1795102860, '68316.16', '68354.42', '68316.10', '68338.180'),
      bar(1795102920, '1.5', '1.4', '1.3', '1.45'), // high below open: rejected
      bar(1795102980, '2', '3', '1', '2', '-0.5'), // negative volume: rejected
      bar(1795103040, '0.000', '12345678901234567890.5', '0', '1'), // a decimal too long to fold
      bar(1795103100, '10.10', '10.10', '10.10', '10.10', '0', '0.0'),
    ];
    const text = `{"ret":200,"msg":"ok","trace":"t","data":{"code":"BTCUSDT","kline_type":1,"kline_list":[${bars.join(',')}]}}`;
    const page = scanKlinePage(text)!;
    const reference = schemaPath(text) as { code: string; kline_list: Record<string, string>[] };
    expect(checkRows(page, reference)).toBe(3);
    const types = columnTypes(DEFAULT_DECIMAL);
    const words = new BatchWords(bars.length, KLINE_DECIMALS.map(() => 18));
    const rows = page.kline_list.map((b, i) => parseKline({ code: 'BTCUSDT', interval: '1m', bar: b, final: true, source: '/kline' }, types, words, i));
    expect(rows.map((r) => ('failure' in r ? r.failure.code : `${r.open} ${r.high} ${r.low} ${r.close} ${r.volume} ${r.turnover}`))).toEqual([
      '68316.16 68354.42 68316.1 68338.18 1.5 100',
      'QL_OHLC_INCONSISTENT',
      'QL_NEGATIVE_AMOUNT',
      '0 12345678901234567890.5 0 1 1.5 100',
      '10.1 10.1 10.1 10.1 0 0',
    ]);
    const got = KLINE_DECIMALS.map(() => new Uint32Array(4));
    expect(RowWithWords.copyAllWords(rows[0] as object, 18, got, 0)).toBe(true);
    expect(got.map((g) => wordsToBigInt(g, 0).toString())).toEqual(['68316160000000000000000', '68354420000000000000000', '68316100000000000000000', '68338180000000000000000', '1500000000000000000', '100000000000000000000']);
  });

  it('takes the documented example, and declines error answers and an empty body', async () => {
    const { readFile } = await import('node:fs/promises');
    const example = await readFile(new URL('../fixtures/api/kline-crypto.json', import.meta.url), 'utf8');
    const page = scanKlinePage(example);
    expect(page).toBeDefined();
    expect(JSON.stringify(page)).toBe(JSON.stringify(schemaPath(example)));
    const error = await readFile(new URL('../fixtures/api/error-market.json', import.meta.url), 'utf8');
    expect(scanKlinePage(error)).toBeUndefined();
    expect(scanKlinePage('')).toBeUndefined();
    expect(scanKlinePage('{}')).toBeUndefined();
  });
});
