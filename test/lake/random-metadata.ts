/**
 * File key-value metadata for the codec fuzz tests: the provenance keys every lake file carries,
 * a `quotelake.series` and a source endpoint of random shape, and a few random keys whose values
 * are the text that trips codecs (empty, quotes, backslashes, multi-byte and astral characters,
 * long values).
 */
import { formatSeries, type SeriesStats } from '../../src/lake/series-stats.js';

const PIECES = ['', '"', '\\', ',', '{}', 'é', '中文', '😀', '\u0000', ' ', 'quote-b-api', '\n'];

function text(rnd: () => number, max: number): string {
  let out = '';
  const n = Math.floor(rnd() * max);
  for (let i = 0; i < n; i++) out += PIECES[Math.floor(rnd() * PIECES.length)]!;
  return out;
}

export function fileMetadataOf(provenance: ReadonlyMap<string, string>, rnd: () => number): Map<string, string> {
  const kv = new Map(provenance);
  const series = new Map<string, SeriesStats>();
  const count = Math.floor(rnd() * 4);
  for (let i = 0; i < count; i++) {
    const first = rnd() < 0.2 ? null : Math.floor(rnd() * 4e12);
    series.set(`CODE${i}${text(rnd, 3)}`, { rows: Math.floor(rnd() * 1e6), first, last: first === null ? null : first + Math.floor(rnd() * 1e9) });
  }
  kv.set('quotelake.series', formatSeries(series));
  kv.set('quotelake.source_endpoint', rnd() < 0.5 ? '/quote-b-api/kline' : '/quote-b-api/kline,/quote-stock-b-api/kline');
  const extra = Math.floor(rnd() * 4);
  for (let i = 0; i < extra; i++) kv.set(`quotelake.fuzz_${i}`, rnd() < 0.1 ? 'x'.repeat(70_000) : text(rnd, 12));
  return kv;
}
