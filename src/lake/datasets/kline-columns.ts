/**
 * K-line rows → column buffers on arrival (see column-builder.ts): codes and intervals as ids into
 * a small dictionary, instants as doubles, each decimal straight into its Decimal128 words.
 * About 120 bytes a row instead of a row object and its strings.
 *
 * Rows go into fixed-size chunks rather than arrays that double: nothing is copied while rows
 * arrive, columns() copies each column once into exact-size buffers, and the chunks go back to a
 * small pool for the next partition. Fresh typed arrays are memory outside the JS heap, and every
 * few dozen MB of it makes V8 run a full collection, so not allocating them is what counts.
 */
import { Bool, makeData, Utf8, type Data, type Decimal, type TimestampMillisecond } from 'apache-arrow';
import { KLINE_DECIMALS, RowWithWords } from '../../core/carried-words.js';
import { formatDecimalWords, writeDecimalWords, type DecimalType } from '../../core/decimal.js';
import { SinkError } from '../../core/errors.js';
import type { KlineLane } from '../../core/kline-lane.js';
import type { Interval, KlineRow } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';
import { StringDictionary, type ColumnBuilder } from '../columns/column-builder.js';

const DECIMALS = KLINE_DECIMALS;
type DecimalColumn = (typeof DECIMALS)[number];

/**
 * The six decimals of one K-line as canonical text, from their Decimal128 words at `at` in
 * `words[k]` (one array per column, in KLINE_DECIMALS order), each at its column's scale.
 */
export function klineDecimalsAt(words: readonly Uint32Array[], at: number, scales: readonly number[]): Pick<KlineRow, DecimalColumn> {
  const dec = (c: number) => formatDecimalWords(words[c]!, at, scales[c]!);
  return { open: dec(0), high: dec(1), low: dec(2), close: dec(3), volume: dec(4), turnover: dec(5) };
}
const TWO32 = 4294967296;
/** A partition's first chunk is small (a run may hold many partitions of a few rows each); later ones are pooled. */
const FIRST_CHUNK_ROWS = 256;
const CHUNK_ROWS = 1024;
/** At most this many spare chunks are kept (about 0.5 MB each). */
const POOL_LIMIT = 32;

interface Chunk {
  readonly rows: number;
  readonly codeIds: Int32Array;
  readonly intervalIds: Int32Array;
  /** -1: the row named no source. */
  readonly sourceIds: Int32Array;
  readonly ts: Float64Array;
  readonly final: Uint8Array;
  /** One array per decimal column, 4 words a row. */
  readonly words: Uint32Array[];
}

const spareChunks: Chunk[] = [];

function newChunk(rows: number): Chunk {
  if (rows === CHUNK_ROWS && spareChunks.length > 0) return spareChunks.pop()!;
  return {
    rows,
    codeIds: new Int32Array(rows),
    intervalIds: new Int32Array(rows),
    sourceIds: new Int32Array(rows),
    ts: new Float64Array(rows),
    final: new Uint8Array(rows),
    words: DECIMALS.map(() => new Uint32Array(rows * 4)),
  };
}

/**
 * The open times of `n` rows as Int64 words and their final flags as bits. Apart from columns(), so
 * that columns() has no loop: code compiled in the middle of a loop's first run (OSR) has no type
 * feedback for what follows the loop, and gave up there on every later call.
 */
function timesAndFinals(chunks: readonly Chunk[], n: number): { tsWords: Uint32Array; bits: Uint8Array } {
  // Instants (validated non-negative safe integers) split into two 32-bit halves: no BigInt.
  const tsWords = new Uint32Array(n * 2);
  const bits = new Uint8Array((n + 7) >> 3);
  let i = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.rows, n - i);
    for (let j = 0; j < take; j++, i++) {
      const ms = chunk.ts[j]!;
      const hi = Math.floor(ms / TWO32);
      tsWords[2 * i] = ms - hi * TWO32;
      tsWords[2 * i + 1] = hi;
      if (chunk.final[j] === 1) bits[i >> 3]! |= 1 << (i & 7);
    }
  }
  return { tsWords, bits };
}

/** `n` rows of one per-row array across the chunks, in one exact-size array. */
function joined<T extends Int32Array | Float64Array | Uint8Array | Uint32Array>(chunks: readonly Chunk[], n: number, width: number, pick: (c: Chunk) => T): T {
  const first = pick(chunks[0]!);
  const out = new (first.constructor as new (length: number) => T)(n * width);
  let at = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.rows, n - at);
    if (take <= 0) break;
    out.set(pick(chunk).subarray(0, take * width), at * width);
    at += take;
  }
  return out;
}

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
  private readonly codes = new StringDictionary();
  private readonly intervals = new StringDictionary();
  private readonly sources = new StringDictionary();
  private readonly chunks: Chunk[] = [];
  /** The chunk rows go into, and the next row's index in it. */
  private chunk: Chunk;
  private at = 0;
  private released = false;
  private readonly types: Decimal[];
  /** The one scale of every decimal column (the sink has one decimal type). */
  private readonly scale: number;
  private readonly tsType: TimestampMillisecond;

  constructor(decimal: DecimalType) {
    const schema = datasetSchema('kline', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    this.types = DECIMALS.map((c) => type(c) as Decimal);
    this.scale = decimal.scale;
    this.tsType = type('ts') as TimestampMillisecond;
    this.chunk = newChunk(FIRST_CHUNK_ROWS);
    this.chunks.push(this.chunk);
  }

  private decimal(c: number, text: string | null | undefined, words: Uint32Array, off: number): void {
    const type = this.types[c]!;
    if (text == null || !writeDecimalWords(text, type.scale, words, off)) {
      throw new SinkError(`column ${DECIMALS[c]}: value ${JSON.stringify(text)} does not fit DECIMAL(${type.precision},${type.scale})`);
    }
  }

  /** The chunk and index the next row goes to (a new chunk when the last one is full). */
  private next(): number {
    if (this.released) throw new Error('KlineColumnBuilder: append after columns()');
    if (this.at === this.chunk.rows) {
      this.chunk = newChunk(CHUNK_ROWS);
      this.chunks.push(this.chunk);
      this.at = 0;
    }
    return this.at;
  }

  appendLaneRun(lane: KlineLane, from: number, to: number): void {
    const codeId = this.codes.id(lane.code);
    const intervalId = this.intervals.id(lane.interval);
    const sourceId = this.sources.id(lane.source);
    lane.page.assertLive();
    const scanned = lane.page.words;
    for (let i = from; i < to; i++) {
      const j = this.next();
      const chunk = this.chunk;
      const words = chunk.words;
      let at = lane.row(i) * 24;
      for (let k = 0; k < DECIMALS.length; k++, at += 4) {
        const dest = words[k]!;
        dest[4 * j] = scanned[at]!;
        dest[4 * j + 1] = scanned[at + 1]!;
        dest[4 * j + 2] = scanned[at + 2]!;
        dest[4 * j + 3] = scanned[at + 3]!;
      }
      chunk.codeIds[j] = codeId;
      chunk.intervalIds[j] = intervalId;
      chunk.sourceIds[j] = sourceId;
      chunk.ts[j] = lane.seconds[i]! * 1000;
      chunk.final[j] = lane.final[i]!;
      this.at = j + 1;
      this.length++;
    }
  }

  append(row: KlineRow): void {
    const j = this.next();
    const chunk = this.chunk;
    const words = chunk.words;
    // Decimals first: a value that does not fit leaves the builder as it was. The words
    // parse-decimals computed while validating are copied when the row carries them at this scale.
    if (!RowWithWords.copyAllWords(row, this.scale, words, 4 * j)) {
      this.decimal(0, row.open, words[0]!, 4 * j);
      this.decimal(1, row.high, words[1]!, 4 * j);
      this.decimal(2, row.low, words[2]!, 4 * j);
      this.decimal(3, row.close, words[3]!, 4 * j);
      this.decimal(4, row.volume, words[4]!, 4 * j);
      this.decimal(5, row.turnover, words[5]!, 4 * j);
    }
    chunk.codeIds[j] = this.codes.id(row.code);
    chunk.intervalIds[j] = this.intervals.id(row.interval);
    chunk.sourceIds[j] = typeof row.source === 'string' ? this.sources.id(row.source) : -1;
    chunk.ts[j] = row.ts;
    chunk.final[j] = row.final ? 1 : 0;
    this.at = j + 1;
    this.length++;
  }

  /** The builder's last use: its chunks go back to the pool. */
  columns(): Data[] {
    if (this.released) throw new Error('KlineColumnBuilder: columns() called twice');
    const n = this.length;
    const chunks = this.chunks;
    const { tsWords, bits } = timesAndFinals(chunks, n);
    const columns = [
      utf8FromIds(this.codes, joined(chunks, n, 1, (c) => c.codeIds), n),
      // No interval column: it lives in the partition path (layout 2); rows() still needs it.
      makeData({ type: this.tsType, length: n, nullCount: 0, data: new BigInt64Array(tsWords.buffer) }),
      ...DECIMALS.map((_, c) => makeData({ type: this.types[c]!, length: n, nullCount: 0, data: joined(chunks, n, 4, (k) => k.words[c]!) })),
      makeData({ type: new Bool(), length: n, nullCount: 0, data: bits }),
    ];
    this.released = true;
    for (const chunk of chunks) if (chunk.rows === CHUNK_ROWS && spareChunks.length < POOL_LIMIT) spareChunks.push(chunk);
    chunks.length = 0;
    return columns;
  }

  metadata(): Record<string, string> {
    // Every dictionary entry came from an appended row.
    const sources = [...this.sources.values].sort();
    return { 'quotelake.ts': 'bar open time (UTC)', 'quotelake.bar_time': 'open', 'quotelake.source_endpoint': sources.length > 0 ? sources.join(',') : '/kline' };
  }

  rows(): KlineRow[] {
    if (this.released) throw new Error('KlineColumnBuilder: rows() after columns()');
    const out: KlineRow[] = new Array(this.length);
    const scales = this.types.map((t) => t.scale);
    let i = 0;
    for (const chunk of this.chunks) {
      const take = Math.min(chunk.rows, this.length - i);
      for (let j = 0; j < take; j++, i++) {
        const sourceId = chunk.sourceIds[j]!;
        const source = sourceId >= 0 ? this.sources.values[sourceId] : undefined;
        const row: Record<DecimalColumn | 'code' | 'interval' | 'ts' | 'final' | 'source', unknown> = {
          code: this.codes.values[chunk.codeIds[j]!]!,
          interval: this.intervals.values[chunk.intervalIds[j]!]! as Interval,
          ts: chunk.ts[j]!,
          ...klineDecimalsAt(chunk.words, 4 * j, scales),
          final: chunk.final[j] === 1,
          source,
        };
        if (source === undefined) delete row.source;
        out[i] = row as unknown as KlineRow;
      }
    }
    return out;
  }
}
