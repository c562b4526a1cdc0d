/**
 * K-line rows → column buffers on arrival (see column-builder.ts): codes and intervals as ids into
 * a small dictionary, instants as doubles, each decimal straight into its Decimal128 words.
 * About 120 bytes a row instead of a row object and its strings.
 */
import { Bool, makeData, Utf8, type Data, type Decimal, type TimestampMillisecond } from 'apache-arrow';
import { KLINE_DECIMALS, RowWithWords } from '../../../core/carried-words.js';
import { formatDecimalWords, writeDecimalWords, type DecimalType } from '../../../core/decimal.js';
import { SinkError } from '../../../core/errors.js';
import type { Interval, KlineRow } from '../../../core/records.js';
import { datasetSchema } from '../../../core/schemas.js';
import { grown, StringDictionary, type ColumnBuilder } from '../column-builder.js';

const DECIMALS = KLINE_DECIMALS;
type DecimalColumn = (typeof DECIMALS)[number];
const TWO32 = 4294967296;
/** A page's worth first; a run may hold many partitions with a few rows each. */
const FIRST_CAPACITY = 1024;

/**
 * Utf8 column from dictionary ids. Rows arrive in runs of one code (a source's page), so each run
 * is written once and then doubled with copyWithin instead of copied byte by byte.
 */
function utf8FromIds(dict: StringDictionary, ids: Int32Array, n: number): Data<Utf8> {
  const encoded = dict.values.map((v) => Buffer.from(v, 'utf8'));
  const offsets = new Int32Array(n + 1);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    bytes += encoded[ids[i]!]!.length;
    offsets[i + 1] = bytes;
  }
  const data = new Uint8Array(bytes);
  let i = 0;
  while (i < n) {
    const id = ids[i]!;
    let end = i + 1;
    while (end < n && ids[end] === id) end++;
    const value = encoded[id]!;
    const start = offsets[i]!;
    const stop = offsets[end]!;
    data.set(value, start);
    for (let filled = value.length; filled < stop - start; filled *= 2) {
      data.copyWithin(start + filled, start, Math.min(start + 2 * filled, stop) - filled);
    }
    i = end;
  }
  return makeData({ type: new Utf8(), length: n, nullCount: 0, data, valueOffsets: offsets });
}

export class KlineColumnBuilder implements ColumnBuilder<KlineRow> {
  length = 0;
  private capacity = FIRST_CAPACITY;
  private readonly codes = new StringDictionary();
  private readonly intervals = new StringDictionary();
  private readonly sources = new StringDictionary();
  private codeIds = new Int32Array(FIRST_CAPACITY);
  private intervalIds = new Int32Array(FIRST_CAPACITY);
  /** -1: the row named no source. */
  private sourceIds = new Int32Array(FIRST_CAPACITY);
  private ts = new Float64Array(FIRST_CAPACITY);
  private final = new Uint8Array(FIRST_CAPACITY);
  private readonly words: Uint32Array[] = DECIMALS.map(() => new Uint32Array(FIRST_CAPACITY * 4));
  private readonly types: Decimal[];
  private readonly tsType: TimestampMillisecond;

  constructor(decimal: DecimalType) {
    const schema = datasetSchema('kline', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    this.types = DECIMALS.map((c) => type(c) as Decimal);
    this.tsType = type('ts') as TimestampMillisecond;
  }

  private grow(): void {
    const n = this.length;
    const cap = this.capacity * 2;
    this.codeIds = grown(this.codeIds, cap, 1, n);
    this.intervalIds = grown(this.intervalIds, cap, 1, n);
    this.sourceIds = grown(this.sourceIds, cap, 1, n);
    this.ts = grown(this.ts, cap, 1, n);
    this.final = grown(this.final, cap, 1, n);
    for (let c = 0; c < DECIMALS.length; c++) this.words[c] = grown(this.words[c]!, cap, 4, n);
    this.capacity = cap;
  }

  private decimal(row: KlineRow, c: number, text: string | null | undefined, i: number): void {
    const type = this.types[c]!;
    // Words parse-decimals computed while validating, when the row carries them at this scale.
    if (RowWithWords.copyWords(row, c, type.scale, this.words[c]!, 4 * i)) return;
    if (text == null || !writeDecimalWords(text, type.scale, this.words[c]!, 4 * i)) {
      throw new SinkError(`column ${DECIMALS[c]}: value ${JSON.stringify(text)} does not fit DECIMAL(${type.precision},${type.scale})`);
    }
  }

  append(row: KlineRow): void {
    const i = this.length;
    if (i === this.capacity) this.grow();
    // Decimals first: a value that does not fit leaves the builder as it was.
    this.decimal(row, 0, row.open, i);
    this.decimal(row, 1, row.high, i);
    this.decimal(row, 2, row.low, i);
    this.decimal(row, 3, row.close, i);
    this.decimal(row, 4, row.volume, i);
    this.decimal(row, 5, row.turnover, i);
    this.codeIds[i] = this.codes.id(row.code);
    this.intervalIds[i] = this.intervals.id(row.interval);
    this.sourceIds[i] = typeof row.source === 'string' ? this.sources.id(row.source) : -1;
    this.ts[i] = row.ts;
    this.final[i] = row.final ? 1 : 0;
    this.length = i + 1;
  }

  columns(): Data[] {
    const n = this.length;
    // Instants (validated non-negative safe integers) split into two 32-bit halves: no BigInt.
    const tsWords = new Uint32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const ms = this.ts[i]!;
      const hi = Math.floor(ms / TWO32);
      tsWords[2 * i] = ms - hi * TWO32;
      tsWords[2 * i + 1] = hi;
    }
    const bits = new Uint8Array((n + 7) >> 3);
    for (let i = 0; i < n; i++) if (this.final[i] === 1) bits[i >> 3]! |= 1 << (i & 7);
    return [
      utf8FromIds(this.codes, this.codeIds, n),
      utf8FromIds(this.intervals, this.intervalIds, n),
      makeData({ type: this.tsType, length: n, nullCount: 0, data: new BigInt64Array(tsWords.buffer) }),
      ...DECIMALS.map((_, c) => makeData({ type: this.types[c]!, length: n, nullCount: 0, data: this.words[c]!.subarray(0, 4 * n) })),
      makeData({ type: new Bool(), length: n, nullCount: 0, data: bits }),
    ];
  }

  metadata(): Record<string, string> {
    // Every dictionary entry came from an appended row.
    const sources = [...this.sources.values].sort();
    return { 'quotelake.ts': 'bar open time (UTC)', 'quotelake.source_endpoint': sources.length > 0 ? sources.join(',') : '/kline' };
  }

  rows(): KlineRow[] {
    const out: KlineRow[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const dec = (c: number) => formatDecimalWords(this.words[c]!, 4 * i, this.types[c]!.scale);
      const source = this.sourceIds[i]! >= 0 ? this.sources.values[this.sourceIds[i]!] : undefined;
      const row: Record<DecimalColumn | 'code' | 'interval' | 'ts' | 'final' | 'source', unknown> = {
        code: this.codes.values[this.codeIds[i]!]!,
        interval: this.intervals.values[this.intervalIds[i]!]! as Interval,
        ts: this.ts[i]!,
        open: dec(0),
        high: dec(1),
        low: dec(2),
        close: dec(3),
        volume: dec(4),
        turnover: dec(5),
        final: this.final[i] === 1,
        source,
      };
      if (source === undefined) delete row.source;
      out[i] = row as unknown as KlineRow;
    }
    return out;
  }
}
