/**
 * A /kline answer read straight from its text (issue 14): the envelope and the bar objects are
 * scanned in one pass, each decimal's digits folded into its Decimal128 words at scale 18 while
 * they are read (see core/scanned-bar.ts), with no generic JSON tree and no schema walk. Only the
 * shape the service documents is taken: `{ret: 200, msg, trace?, data: {code, kline_type,
 * kline_list: [bar...]}}` with the keys in any order and any JSON whitespace, each bar exactly the
 * seven string fields. Anything else (another `ret`, an unknown or repeated key, an escape, a
 * non-ASCII or control character, a number that is not a plain integer, a bar field that is not a
 * string, a missing field, invalid JSON) answers undefined, and the caller takes the JSON.parse +
 * zod path, so every error, rejection and message stays exactly what that path says. A value that
 * is a string but not a plain decimal is passed on as text, unfolded: parse-decimals rejects it
 * by code, field and value as before. test/api/kline-page-scan-fuzz.test.ts holds it to three
 * independent readers.
 */
import { storeScaled, writeDecimalWords } from '../core/decimal.js';
import { lazyRows } from '../core/lazy-rows.js';
import { MAX_FOLDED_INT_DIGITS, SCANNED_SCALE, ScannedWords, type ScannedBar } from '../core/scanned-bar.js';
import type { WireKline } from '../core/wire.js';

/**
 * What the schema path returns for a /kline answer (klineDataSchema's output). `kline_list` is
 * made on its first read (lazy-rows.ts); its lane is the scanned page, which the K-line source reads
 * without making a bar object.
 */
export interface ScannedKlineData {
  code: string;
  kline_type: number;
  kline_list: readonly WireKline[];
}

/** Thrown inside the scanner for anything it does not take; never leaves this file. */
const UNEXPECTED = Symbol('unexpected');

const ENVELOPE_KEYS = ['ret', 'msg', 'trace', 'data'] as const;
const DATA_KEYS = ['code', 'kline_type', 'kline_list'] as const;
/** Bar keys in the schema path's order (KLINE_FIELDS), which is ScannedBar's constructor order. */
const BAR_KEYS = ['timestamp', 'open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;
/** The words slot (KLINE_DECIMALS order: open, high, low, close, volume, turnover) of each bar key; -1 for the timestamp. */
const DECIMAL_SLOT = [-1, 0, 3, 1, 2, 4, 5] as const;
const ALL_BAR_KEYS = (1 << BAR_KEYS.length) - 1;
/** Each bar key as the service writes it, with its colon and the value's opening quote. */
const COMPACT_KEYS = BAR_KEYS.map((k) => `"${k}":"`);
/** A string's content as the scanner takes it: printable ASCII, no quote, no backslash (see skipString). */
const PLAIN_TEXT = '[ !#-\\[\\]-~]*';
/**
 * A whole bar in the service's compact layout, checked in one go by the regular expression engine
 * (native code): comparing the seven keys character by character in JavaScript was a third of the
 * scanner's time. Sticky: it matches at lastIndex or not at all.
 */
const COMPACT_BAR = new RegExp(`\\{${BAR_KEYS.map((k) => `"${k}":"${PLAIN_TEXT}"`).join(',')}\\}`, 'y');

/** Digits folded as they are read: 15 are exact in a double. */
const MAX_EXACT_DIGITS = 15;

/**
 * Characters a bar takes in the service's compact layout, rounded down (a 500-bar crypto page is about 85,500 characters: 171 a bar)
 * so that the words' first size, the text left over this, errs on the side of room.
 */
const BAR_CHARS = 150;


export function scanKlinePage(text: string): ScannedKlineData | undefined {
  try {
    return new PageScanner(text).page();
  } catch (error) {
    if (error === UNEXPECTED) return undefined;
    throw error;
  }
}

class PageScanner {
  private i = 0;
  constructor(private readonly s: string) {}

  page(): ScannedKlineData {
    let seen = 0;
    let data: ScannedKlineData | undefined;
    this.expect(123);
    if (this.peek() === 125) throw UNEXPECTED;
    for (;;) {
      const key = this.key(ENVELOPE_KEYS);
      if (seen & (1 << key)) throw UNEXPECTED;
      seen |= 1 << key;
      this.expect(58);
      if (key === 0) {
        if (this.integer() !== 200) throw UNEXPECTED;
      } else if (key === 3) {
        data = this.data();
      } else {
        this.string();
      }
      if (!this.more(125)) break;
    }
    this.ws();
    // ret, msg and data are required (trace is optional); nothing may follow the envelope.
    if ((seen & 0b1011) !== 0b1011 || data === undefined || this.i !== this.s.length) throw UNEXPECTED;
    return data;
  }

  private data(): ScannedKlineData {
    let seen = 0;
    let code = '';
    let klineType = 0;
    let bars: readonly WireKline[] = [];
    this.expect(123);
    if (this.peek() === 125) throw UNEXPECTED;
    for (;;) {
      const key = this.key(DATA_KEYS);
      if (seen & (1 << key)) throw UNEXPECTED;
      seen |= 1 << key;
      this.expect(58);
      if (key === 0) code = this.s.slice(this.string(), this.i - 1);
      else if (key === 1) klineType = this.integer();
      else bars = this.list();
      if (!this.more(125)) break;
    }
    if (seen !== 0b111) throw UNEXPECTED;
    return { code, kline_type: klineType, kline_list: bars };
  }

  private list(): readonly WireKline[] {
    this.expect(91);
    if (this.peek() === 93) {
      this.i++;
      return [];
    }
    // Sized from the text left, so a full page is one allocation, not four doublings; a denser
    // page still grows as needed.
    const page = new ScannedWords(this.s, Math.max(8, Math.ceil((this.s.length - this.i) / BAR_CHARS)));
    for (let row = 0; ; row++) {
      page.reserve(row);
      this.ws();
      if (!this.compactBar(page, row)) this.anyBar(page, row);
      page.count = row + 1;
      if (!this.more(93)) break;
    }
    return lazyRows<ScannedBar>(page.count, () => Array.from({ length: page.count }, (_, row) => page.bar(row)), page);
  }

  /**
   * The service's own layout, the common case: no whitespace, the keys in the documented order,
   * every value a plain string (COMPACT_BAR). False, with `i` where it was, for anything else:
   * anyBar then reads the bar whatever its layout.
   */
  private compactBar(page: ScannedWords, row: number): boolean {
    const from = this.i;
    COMPACT_BAR.lastIndex = from;
    if (!COMPACT_BAR.test(this.s)) return false;
    // The keys are as written, every value is a plain string and a `,` or the `}` follows each:
    // the expression has checked all of it, so each value is read from where it starts.
    let start = from + 1;
    for (let key = 0; key < COMPACT_KEYS.length; key++) {
      start += COMPACT_KEYS[key]!.length;
      const slot = DECIMAL_SLOT[key]!;
      const end = slot < 0 ? this.stampAt(page, row, start) : this.decimalAt(page, row, slot, start);
      page.span(row, key, start, end);
      start = end + 2;
    }
    this.i = COMPACT_BAR.lastIndex;
    return true;
  }

  /** A bar in any key order and any whitespace. */
  private anyBar(page: ScannedWords, row: number): void {
    let seen = 0;
    this.expect(123);
    if (this.peek() === 125) throw UNEXPECTED;
    for (;;) {
      const key = this.key(BAR_KEYS);
      if (seen & (1 << key)) throw UNEXPECTED;
      seen |= 1 << key;
      this.expect(58);
      const slot = DECIMAL_SLOT[key]!;
      const start = slot < 0 ? this.stamp(page, row) : this.decimal(page, row, slot);
      page.span(row, key, start, this.i - 1);
      if (!this.more(125)) break;
    }
    if (seen !== ALL_BAR_KEYS) throw UNEXPECTED;
  }

  /**
   * A string value that should be a decimal: folded into its words at scale 18 when it is a plain
   * decimal DECIMAL(38,18) holds, giving the words and canonical text parseDecimalWords gives (up
   * to 15 digits folded as they are read, as its fast path does; longer ones through their
   * canonical text, as its general path does); any other string is only checked and left to be
   * read from its text. Returns where the text starts; `i` ends past the closing quote.
   */
  private decimal(page: ScannedWords, row: number, slot: number): number {
    this.expect(34);
    const start = this.i;
    this.i = this.decimalAt(page, row, slot, start) + 1;
    return start;
  }

  /** decimal() for the string whose text starts at `start`: returns where its closing quote is. */
  private decimalAt(page: ScannedWords, row: number, slot: number, start: number): number {
    const s = this.s;
    let i = start;
    let c = s.charCodeAt(i);
    let neg = false;
    if (c === 45) {
      neg = true;
      c = s.charCodeAt(++i);
    }
    const intStart = i;
    let v = 0;
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      c = s.charCodeAt(++i);
    }
    const intEnd = i;
    let lastNonZero = i;
    let fracLen = 0;
    let point = false;
    if (c === 46) {
      point = true;
      c = s.charCodeAt(++i);
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        if (c !== 48) lastNonZero = i + 1;
        c = s.charCodeAt(++i);
      }
      fracLen = i - intEnd - 1;
    }
    const intLen = intEnd - intStart;
    if (
      c !== 34 ||
      intLen === 0 ||
      (point && fracLen === 0) ||
      intLen > MAX_FOLDED_INT_DIGITS ||
      fracLen > SCANNED_SCALE ||
      (intLen > 1 && s.charCodeAt(intStart) === 48)
    ) {
      return this.unfolded(page, row, slot, start);
    }
    // parseDecimalWords' canonical text: '0' for zero (length 0 here; a sum of digits is 0 only
    // when every digit is, however inexact `v` is), else without trailing fractional zeros (and
    // without the point when nothing is left after it).
    const canonical = v === 0 ? 0 : fracLen === 0 || lastNonZero === i ? i - start : (lastNonZero > intEnd ? lastNonZero : intEnd) - start;
    const at = (row * 6 + slot) * 4;
    if (intLen + fracLen <= MAX_EXACT_DIGITS) storeScaled(v, SCANNED_SCALE - fracLen, neg, page.words, at);
    // Longer: its canonical text's words, as parseDecimalWords' general path writes them.
    else if (!writeDecimalWords(canonical === 0 ? '0' : s.slice(start, start + canonical), SCANNED_SCALE, page.words, at)) return this.unfolded(page, row, slot, start);
    page.folded(row, slot, canonical, intLen);
    return i;
  }

  /**
   * A value not folded: the text goes on as it is (after the same checks as any string). Returns
   * where its closing quote is.
   */
  private unfolded(page: ScannedWords, row: number, slot: number, start: number): number {
    page.notFolded(row, slot);
    this.i = start;
    this.skipString();
    return this.i - 1;
  }

  /**
   * The `timestamp` string: its value noted when it is 1 to 12 ASCII digits (-1 otherwise), so the
   * page is ordered and its rows timed without reading the text again. Returns where the text
   * starts; `i` ends past the closing quote.
   */
  private stamp(page: ScannedWords, row: number): number {
    this.expect(34);
    const start = this.i;
    this.i = this.stampAt(page, row, start) + 1;
    return start;
  }

  /** stamp() for the string whose text starts at `start`: returns where its closing quote is. */
  private stampAt(page: ScannedWords, row: number, start: number): number {
    const s = this.s;
    let i = start;
    let v = 0;
    let c = s.charCodeAt(i);
    // Digits only, the service's form: read and checked in one pass.
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      c = s.charCodeAt(++i);
    }
    if (c === 34) {
      page.stamps[row] = i - start >= 1 && i - start <= 12 ? v : -1;
      return i;
    }
    // Anything else is checked as any string is, and has no value.
    this.i = start;
    this.skipString();
    page.stamps[row] = -1;
    return this.i - 1;
  }

  /** A string value: returns where its text starts; `i` ends past the closing quote. */
  private string(): number {
    this.expect(34);
    const start = this.i;
    this.skipString();
    return start;
  }

  /** From inside a string to past its closing quote; only printable ASCII without escapes is taken. */
  private skipString(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34) break;
      // NaN (past the end) fails the range test too.
      if (!(c >= 32 && c < 127) || c === 92) throw UNEXPECTED;
      i++;
    }
    this.i = i + 1;
  }

  /** An object key among `names` (its index); any other key is not taken. */
  private key(names: readonly string[]): number {
    const start = this.string();
    const length = this.i - 1 - start;
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      if (name.length === length && this.s.startsWith(name, start)) return k;
    }
    throw UNEXPECTED;
  }

  /** A plain JSON integer of at most 15 digits (no fraction, no exponent: those take the schema path). */
  private integer(): number {
    this.ws();
    const s = this.s;
    let i = this.i;
    let neg = false;
    if (s.charCodeAt(i) === 45) {
      neg = true;
      i++;
    }
    const first = i;
    let v = 0;
    let c = s.charCodeAt(i);
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      c = s.charCodeAt(++i);
    }
    const digits = i - first;
    if (digits === 0 || digits > 15 || (digits > 1 && s.charCodeAt(first) === 48) || c === 46 || c === 101 || c === 69) throw UNEXPECTED;
    this.i = i;
    return neg ? -v : v;
  }

  /** After a member or element: true for a comma (more follow), false for `close`. */
  private more(close: number): boolean {
    this.ws();
    const c = this.s.charCodeAt(this.i++);
    if (c === 44) return true;
    if (c === close) return false;
    throw UNEXPECTED;
  }

  private expect(code: number): void {
    this.ws();
    if (this.s.charCodeAt(this.i) !== code) throw UNEXPECTED;
    this.i++;
  }

  private peek(): number {
    this.ws();
    return this.s.charCodeAt(this.i);
  }

  private ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
    this.i = i;
  }
}
