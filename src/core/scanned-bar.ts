/**
 * A wire K-line read by the client's page scanner (src/api/kline-page-scan.ts) rather than by
 * JSON.parse: the same seven string fields, in the order the schema path gives them, plus the
 * Decimal128 words of its six decimals at scale 18, folded from the digits while the body was
 * scanned. parse-decimals takes those words instead of reading each decimal a second time when
 * its column is DECIMAL(p,18) and the value fits; for anything else it reads the text as always.
 *
 * The words live in private fields (invisible to JSON, spreads, `Object.keys` and equality), so a
 * copy of the bar carries none. The bar is frozen: its text can never drift from its words.
 */
import type { DecimalString, DecimalType } from './decimal.js';
import { givePageBuffer, PAGE_BARS_STEP, takePageBuffer } from './page-buffers.js';
import type { WireKline } from './wire.js';

/** Scale the scanner folds every decimal to (the default column type, DECIMAL(38,18)). */
export const SCANNED_SCALE = 18;

/** Most integer digits of a value the scanner folds: what DECIMAL(38,18) holds. */
export const MAX_FOLDED_INT_DIGITS = 38 - SCANNED_SCALE;

/** Per decimal of a bar, in `META_SLOTS` Int16 slots: canonical length (-1: not folded, 0: zero), integer digits. */
const META_SLOTS = 2;

/** A bar's seven fields, in the schema path's order (KLINE_FIELDS): where each one's text is in the page. */
const FIELDS = 7;
/** The field (in FIELDS order: timestamp, open, close, high, low, volume, turnover) of each words slot (KLINE_DECIMALS order). */
const FIELD_OF_SLOT = [1, 3, 4, 2, 5, 6] as const;

/**
 * A page's four arrays for `bars` bars as views of one buffer: one allocation (and one buffer for
 * the collector to free, or for the pool to take back) a page instead of four. Widest elements
 * first, so each view is aligned. Room is rounded up (PAGE_BARS_STEP), so pages share sizes.
 */
function pageArrays(bars: number): [Float64Array, Uint32Array, Int32Array, Int16Array] {
  const room = Math.ceil(bars / PAGE_BARS_STEP) * PAGE_BARS_STEP;
  const stampBytes = room * 8;
  const wordBytes = room * 24 * 4;
  const spanBytes = room * FIELDS * 2 * 4;
  const buffer = takePageBuffer(stampBytes + wordBytes + spanBytes + room * 6 * META_SLOTS * 2);
  return [
    new Float64Array(buffer, 0, room),
    new Uint32Array(buffer, stampBytes, room * 24),
    new Int32Array(buffer, stampBytes + wordBytes, room * FIELDS * 2),
    new Int16Array(buffer, stampBytes + wordBytes + spanBytes, room * 6 * META_SLOTS),
  ];
}

const NO_STAMPS = new Float64Array(0);
const NO_WORDS = new Uint32Array(0);
const NO_SPANS = new Int32Array(0);
const NO_META = new Int16Array(0);

/**
 * One page as the scanner read it: the answer's text, where each bar's seven fields are in it, the
 * words and facts of its decimals, six per bar in KLINE_DECIMALS order (open, high, low, close,
 * volume, turnover), and each bar's timestamp as a number. A bar object (ScannedBar) is made from
 * these only when something asks for one (see lazy-rows.ts): the K-line lane reads them directly.
 *
 * Once the sink has copied a whole page into its columns, it hands the page's buffer back
 * (recycle) unless something made a view of it (a bar, parse-decimals' rows), which would read the
 * arrays later. A recycled page refuses every read that would need them: an error, never another
 * page's values.
 */
export class ScannedWords {
  /** Grown while the page is scanned (bars reference this object, not the arrays), final after. */
  words: Uint32Array;
  meta: Int16Array;
  /** Each bar's `timestamp` when it is 1 to 12 ASCII digits (its value), else -1. */
  stamps: Float64Array;
  /** Per bar and field (FIELDS order), the start and end of its text in `text`. */
  spans: Int32Array;
  /** Bars scanned so far. */
  count = 0;
  /** Something holds a view of the arrays (a bar, rows over the words): they are never recycled. */
  #viewed = false;
  #recycled = false;
  constructor(
    /** The whole answer the bars were read from. */
    readonly text: string,
    bars: number,
  ) {
    [this.stamps, this.words, this.spans, this.meta] = pageArrays(bars);
  }

  /** Room for bar `row`: doubled when full. */
  reserve(row: number): void {
    if ((row + 1) * 24 <= this.words.length) return;
    const bars = Math.max(2 * (this.words.length / 24), row + 1);
    const [stamps, words, spans, meta] = pageArrays(bars);
    stamps.set(this.stamps);
    words.set(this.words);
    spans.set(this.spans);
    meta.set(this.meta);
    // Only the scan has seen the old arrays.
    givePageBuffer(this.words.buffer as ArrayBuffer);
    this.words = words;
    this.meta = meta;
    this.stamps = stamps;
    this.spans = spans;
  }

  /** About what one bar weighs: its share of the answer's text, its words, stamp and spans. */
  get rowBytes(): number {
    return Math.ceil(this.text.length / Math.max(1, this.count)) + 96 + 8 + 4 * FIELDS * 2;
  }

  /** Bytes outside the JavaScript heap this page took: its arrays (none once recycled), and the answer's body as it arrived. */
  get externalBytes(): number {
    return this.words.byteLength + this.meta.byteLength + this.stamps.byteLength + this.spans.byteLength + this.text.length;
  }

  /** Throws once the page is recycled: its arrays are another page's now. */
  assertLive(): void {
    if (this.#recycled) throw new Error('a scanned page was read after its buffer was recycled (a view of it made after the sink took it)');
  }

  /** A view that reads the arrays later is being made: the page is never recycled. */
  viewed(): void {
    this.assertLive();
    this.#viewed = true;
  }

  /**
   * Hand the arrays back for the next page, when no view of them was made. The caller has copied
   * what it needs and guarantees that nothing else reads this page's arrays (see the sink's
   * tookPage). True when recycled.
   */
  recycle(): boolean {
    if (this.#viewed || this.#recycled) return false;
    this.#recycled = true;
    const buffer = this.words.buffer as ArrayBuffer;
    this.stamps = NO_STAMPS;
    this.words = NO_WORDS;
    this.spans = NO_SPANS;
    this.meta = NO_META;
    givePageBuffer(buffer);
    return true;
  }

  get recycled(): boolean {
    return this.#recycled;
  }

  /** Field `field` (FIELDS order) of bar `row` is text[start, end). */
  span(row: number, field: number, start: number, end: number): void {
    const at = (row * FIELDS + field) * 2;
    this.spans[at] = start;
    this.spans[at + 1] = end;
  }

  /** The text of field `field` (FIELDS order) of bar `row`. */
  field(row: number, field: number): string {
    this.assertLive();
    const at = (row * FIELDS + field) * 2;
    return this.text.slice(this.spans[at]!, this.spans[at + 1]!);
  }

  /** Bar `row` as a wire K-line. */
  bar(row: number): ScannedBar {
    this.viewed();
    return new ScannedBar(this, row);
  }

  /**
   * Whether decimal k (KLINE_DECIMALS order) of bar `row` was folded and has at most `intDigits`
   * integer digits: then its words are exactly what parseDecimalWords gives at scale 18.
   */
  foldedWithin(row: number, k: number, intDigits: number): boolean {
    const m = (row * 6 + k) * META_SLOTS;
    return this.meta[m]! >= 0 && this.meta[m + 1]! <= intDigits;
  }

  /** The canonical text (as parseDecimalWords gives it) of folded decimal k of bar `row`. */
  canonical(row: number, k: number): DecimalString {
    this.assertLive();
    const length = this.meta[(row * 6 + k) * META_SLOTS]!;
    if (length === 0) return '0';
    const at = (row * FIELDS + FIELD_OF_SLOT[k]!) * 2;
    const start = this.spans[at]!;
    return this.text.slice(start, start + length);
  }

  /** Decimal k of bar `row` was folded: its canonical text is the first `canonicalLength` chars of the wire text ('0' when 0). */
  folded(row: number, k: number, canonicalLength: number, intDigits: number): void {
    const m = (row * 6 + k) * META_SLOTS;
    this.meta[m] = canonicalLength;
    this.meta[m + 1] = intDigits;
  }

  /** Decimal k of bar `row` was not folded (not a plain decimal, wider than DECIMAL(38,18)...): read its text. */
  notFolded(row: number, k: number): void {
    this.meta[(row * 6 + k) * META_SLOTS] = -1;
  }
}

export class ScannedBar implements WireKline {
  readonly timestamp: string;
  readonly open_price: string;
  readonly close_price: string;
  readonly high_price: string;
  readonly low_price: string;
  readonly volume: string;
  readonly turnover: string;
  readonly #page: ScannedWords;
  readonly #row: number;

  constructor(page: ScannedWords, row: number) {
    // The schema path's field order (KLINE_FIELDS), so JSON of a rejected bar reads the same.
    this.timestamp = page.field(row, 0);
    this.open_price = page.field(row, 1);
    this.close_price = page.field(row, 2);
    this.high_price = page.field(row, 3);
    this.low_price = page.field(row, 4);
    this.volume = page.field(row, 5);
    this.turnover = page.field(row, 6);
    this.#page = page;
    this.#row = row;
    Object.freeze(this);
  }

  /**
   * The `timestamp` of a scanned bar as a number, read while the body was scanned: its value when
   * the text is 1 to 12 ASCII digits, -1 when it is anything else; undefined for any other object
   * or value (the caller reads the text).
   */
  static stampOf(bar: unknown): number | undefined {
    if (typeof bar !== 'object' || bar === null || !(#page in bar)) return undefined;
    return (bar as ScannedBar).#page.stamps[(bar as ScannedBar).#row]!;
  }

  /**
   * Decimal k (KLINE_DECIMALS order) of a scanned bar, whose wire text is `text`, for a column of
   * `type`: its words copied to dest[off..off+3] and its canonical text returned, exactly as
   * parseDecimalWords would; undefined when the bar was not scanned, the value was not folded, or
   * the column's type is not one the folded words answer for (the caller then reads the text).
   */
  static takeDecimal(bar: object, k: number, text: string, type: DecimalType, dest: Uint32Array, off: number): DecimalString | undefined {
    if (type.scale !== SCANNED_SCALE || !(#page in bar)) return undefined;
    const page = (bar as ScannedBar).#page;
    const at = (bar as ScannedBar).#row * 6 + k;
    const m = at * META_SLOTS;
    const length = page.meta[m]!;
    if (length < 0 || page.meta[m + 1]! > type.precision - SCANNED_SCALE) return undefined;
    const w = page.words;
    const from = at * 4;
    dest[off] = w[from]!;
    dest[off + 1] = w[from + 1]!;
    dest[off + 2] = w[from + 2]!;
    dest[off + 3] = w[from + 3]!;
    if (length === 0) return '0';
    return length === text.length ? text : text.slice(0, length);
  }
}
