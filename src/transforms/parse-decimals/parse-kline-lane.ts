/**
 * parse-decimals on a K-line lane (core/kline-lane.ts): the same checks as parseKline, read from
 * the scanned page's words and facts instead of a row object per bar. The lane is taken only when
 * every bar passes them as a plain bar would; a batch with anything else (a value the scanner did
 * not fold, one too wide for its column, an inconsistent or negative one, a column not at scale 18)
 * answers undefined and goes through parseKline record by record, so every rejection reads exactly
 * as it always did.
 */
import { BatchWords, KLINE_DECIMALS, KlineWordsRow } from '../../core/carried-words.js';
import type { KlineLane } from '../../core/kline-lane.js';
import { lazyRows } from '../../core/lazy-rows.js';
import type { KlineRow } from '../../core/records.js';
import { SCANNED_SCALE } from '../../core/scanned-bar.js';
import { MAX_EPOCH_MS } from '../../core/time.js';
import { ohlcConsistent, type ColumnTypes } from './parse-rows.js';

/** The rows of a raw K-line lane, with the lane at its parsed stage beside them; undefined when any bar needs the record path. */
export function parseKlineLane(lane: KlineLane, types: ColumnTypes): readonly KlineRow[] | undefined {
  const widths = KLINE_DECIMALS.map((c) => types[c].precision - types[c].scale);
  if (KLINE_DECIMALS.some((c) => types[c].scale !== SCANNED_SCALE) || lane.code.length === 0) return undefined;
  const page = lane.page;
  page.assertLive();
  const w = page.words;
  for (let i = 0; i < lane.length; i++) {
    if (lane.seconds[i]! * 1000 > MAX_EPOCH_MS) return undefined;
    const row = lane.row(i);
    for (let k = 0; k < 6; k++) if (!page.foldedWithin(row, k, widths[k]!)) return undefined;
    const at = row * 24;
    // The prices as parseKline compares them; volume and turnover not below zero (a folded zero
    // has no sign in its words, as '-0' has none in its canonical text).
    if (ohlcConsistent(types, w, at) !== true || w[at + 19]! >>> 31 === 1 || w[at + 23]! >>> 31 === 1) return undefined;
  }
  const parsed = lane.as('parsed');
  return lazyRows(lane.length, () => rowsOf(parsed), parsed);
}

/** The rows parseKline gives for the lane's bars. */
function rowsOf(lane: KlineLane): KlineRow[] {
  const page = lane.page;
  // The rows read the page's words from now on.
  page.viewed();
  const words = new BatchWords(page.count, KLINE_DECIMALS.map(() => SCANNED_SCALE), undefined, page.words);
  const rows = new Array<KlineRow>(lane.length);
  for (let i = 0; i < lane.length; i++) {
    const r = lane.row(i);
    const text = (k: number) => page.canonical(r, k);
    rows[i] = new KlineWordsRow(words, r, lane.code, lane.interval, lane.seconds[i]! * 1000, text(0), text(1), text(2), text(3), text(4), text(5), lane.final[i] === 1, lane.source);
  }
  return rows;
}
