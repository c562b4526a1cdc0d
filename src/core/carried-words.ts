/**
 * Rows that carry the Decimal128 words of their decimal columns, computed by parse-decimals in the
 * same pass that validated the text (`parseDecimalWords`). A columnar sink copies the words instead
 * of parsing every decimal a second time; the canonical text stays on the row for every other use.
 * The words travel with the batch's rows (each row references its batch's words), nothing else:
 * no module-global state links the transform to the sink.
 *
 * The words live in private fields: they do not show in JSON, `Object.keys`, spreads or equality
 * checks, and a spread copy (a transform that rewrites a row) carries none, so the sink falls back
 * to the text. Rows are immutable by contract (`readonly` fields), which is what keeps text and
 * words in step.
 */
import { decimalWordsFit, type DecimalString } from './decimal.js';
import type { Interval, KlineRow, TradeRow } from './records.js';

/**
 * Word buffers handed out round-robin to batches, owned by the transform that parses them (one pool
 * per parse-decimals instance, no module state: two pipelines in one process never share words).
 * A fresh buffer per batch (about 0.1 MB per 1,000 K-lines, outside the JS heap) piled up tens of
 * MB of dead buffers between collections, which is most of what peak memory grew by over a long
 * run. A slot is handed out again SLOTS batches later, long after a sink took the words of its rows;
 * a row that reaches a sink later still (a component that holds rows back) finds its slot's epoch
 * changed and carries no words any more, so the sink converts its text: late never means stale.
 */
const SLOTS = 16;
const SLOT_WORDS = 32 * 1024; // 128 KB: 1,365 K-line rows or 2,730 trades
export interface WordsSlot {
  readonly words: Uint32Array;
  epoch: number;
}

export class WordsPool {
  readonly #slots: WordsSlot[] = [];
  #next = 0;

  /** The next slot, its epoch moved on (what the batch that held it before checks); none for a batch too large for one. */
  take(words: number): WordsSlot | undefined {
    if (words > SLOT_WORDS) return undefined;
    const slot = (this.#slots[this.#next] ??= { words: new Uint32Array(SLOT_WORDS), epoch: 0 });
    this.#next = (this.#next + 1) % SLOTS;
    slot.epoch++;
    return slot;
  }
}

/** Words of one batch: one decimal per scale, 4 words each, row after row. */
export class BatchWords {
  readonly words: Uint32Array;
  /** Decimals per row. */
  readonly columns: number;
  /** The scale of every column when they share one, else -1. */
  readonly uniformScale: number;
  /** The reused slot the words live in (none for a batch too large for one), and its epoch then. */
  readonly #slot: WordsSlot | undefined;
  readonly #epoch: number;

  constructor(
    rows: number,
    /** The scale each column was parsed at, in the row type's column order. */
    readonly scales: readonly number[],
    /** Where the words live (reused); without one, a fresh buffer of this batch's own. */
    pool?: WordsPool,
    /** Words already made, 4 per decimal, row after row (a scanned page's): taken as they are. */
    given?: Uint32Array,
  ) {
    this.columns = scales.length;
    this.uniformScale = scales.every((s) => s === scales[0]) ? scales[0]! : -1;
    if (given !== undefined) {
      this.words = given;
      this.#epoch = 0;
      return;
    }
    const needed = rows * this.columns * 4;
    const slot = pool?.take(needed);
    if (slot === undefined) {
      this.words = new Uint32Array(needed);
      this.#epoch = 0;
      return;
    }
    this.#slot = slot;
    this.#epoch = slot.epoch;
    this.words = slot.words;
  }

  /** False once the slot was handed to a later batch: the words no longer describe these rows. */
  get current(): boolean {
    return this.#slot === undefined || this.#slot.epoch === this.#epoch;
  }

  /** Where row `row`'s first word is. */
  offset(row: number): number {
    return row * this.columns * 4;
  }
}

/** dest[destOff..destOff+3] = from[at..at+3]. */
function copyWord4(from: Uint32Array, at: number, dest: Uint32Array, destOff: number): void {
  dest[destOff] = from[at]!;
  dest[destOff + 1] = from[at + 1]!;
  dest[destOff + 2] = from[at + 2]!;
  dest[destOff + 3] = from[at + 3]!;
}

export abstract class RowWithWords {
  readonly #batch: BatchWords;
  readonly #at: number;

  protected constructor(batch: BatchWords, row: number) {
    this.#batch = batch;
    this.#at = batch.offset(row);
  }

  /**
   * Copy decimal column `k` (in the row type's column order) to dest[destOff..destOff+3] when the
   * row carries words parsed at `scale`. False means the caller must convert the text.
   */
  static copyWords(row: object, k: number, scale: number, dest: Uint32Array, destOff: number): boolean {
    if (!(#batch in row)) return false;
    const batch = (row as RowWithWords).#batch;
    if (batch.scales[k] !== scale || !batch.current) return false;
    copyWord4(batch.words, (row as RowWithWords).#at + 4 * k, dest, destOff);
    return true;
  }

  /**
   * Whether the row carries current words for all `columns` of its decimals at `scale` and each
   * fits DECIMAL(precision, scale): true lets a sink skip reading the texts; false says nothing.
   */
  static allWordsFit(row: object, columns: number, scale: number, precision: number): boolean {
    if (!(#batch in row)) return false;
    const batch = (row as RowWithWords).#batch;
    if (batch.uniformScale !== scale || batch.columns !== columns || !batch.current) return false;
    const w = batch.words;
    const at = (row as RowWithWords).#at;
    for (let k = 0; k < columns; k++) if (!decimalWordsFit(w, at + 4 * k, precision)) return false;
    return true;
  }

  /**
   * Copy every decimal column k to dests[k][destOff..destOff+3] when the row carries words and all
   * of them were parsed at `scale` (one check per row instead of one per column).
   */
  static copyAllWords(row: object, scale: number, dests: readonly Uint32Array[], destOff: number): boolean {
    if (!(#batch in row)) return false;
    const batch = (row as RowWithWords).#batch;
    if (batch.uniformScale !== scale || dests.length !== batch.columns || !batch.current) return false;
    const w = batch.words;
    let from = (row as RowWithWords).#at;
    for (let k = 0; k < dests.length; k++, from += 4) copyWord4(w, from, dests[k]!, destOff);
    return true;
  }
}

/** Order of the words of a `KlineWordsRow`. */
export const KLINE_DECIMALS = ['open', 'high', 'low', 'close', 'volume', 'turnover'] as const;

export class KlineWordsRow extends RowWithWords implements KlineRow {
  constructor(
    batch: BatchWords,
    row: number,
    readonly code: string,
    readonly interval: Interval,
    readonly ts: number,
    readonly open: DecimalString,
    readonly high: DecimalString,
    readonly low: DecimalString,
    readonly close: DecimalString,
    readonly volume: DecimalString,
    readonly turnover: DecimalString,
    readonly final: boolean,
    readonly source: string | undefined,
  ) {
    super(batch, row);
  }
}

/** Order of the words of a `TradeWordsRow`. */
export const TRADE_DECIMALS = ['price', 'volume', 'turnover'] as const;

export class TradeWordsRow extends RowWithWords implements TradeRow {
  constructor(
    batch: BatchWords,
    row: number,
    readonly code: string,
    readonly ts: number,
    readonly seq: string,
    readonly price: DecimalString,
    readonly volume: DecimalString,
    readonly turnover: DecimalString,
    readonly direction: 0 | 1 | 2,
    readonly fetched_at: number,
    readonly source: string | undefined,
  ) {
    super(batch, row);
  }
}
