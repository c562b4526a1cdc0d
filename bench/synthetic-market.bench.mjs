// Speed of the emulator's synthetic market (src/emulator/market). Prints nothing; returns figures.
import { findProduct } from '../dist/catalog/index.js';
import { SyntheticMarket } from '../dist/emulator/market/index.js';

const NOW = Date.parse('2026-11-20T15:03:27.123Z'); // Friday: US, FX and crypto sessions open

/** Mean µs per call of fn(i), after a warm-up, for at most budgetMs of wall time. */
function perCall(fn, budgetMs = 800, maxCalls = 20_000) {
  for (let i = 0; i < 20; i++) fn(i);
  const t0 = performance.now();
  let n = 0;
  while (n < maxCalls && performance.now() - t0 < budgetMs) fn(20 + n++);
  return ((performance.now() - t0) * 1000) / n;
}

function once(fn) {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export async function run() {
  const out = [];
  const btc = findProduct('BTCUSDT');
  const aapl = findProduct('AAPL.US');
  const mk = new SyntheticMarket(42);
  const r = (x) => Math.round(x * 10) / 10;
  // The HTTP goal is 2,000 requests/s for a 500-bar 1m /kline on one core: the market's share must stay well under 150 µs.
  out.push({ name: 'market kline 1m x500 BTCUSDT (now moves 137 ms per call)', value: r(perCall((i) => mk.klines(btc, 1, 0, 500, NOW + i * 137))), unit: 'us/call', target: 150 });
  out.push({ name: 'market kline 1m x500 AAPL.US (now moves 137 ms per call)', value: r(perCall((i) => mk.klines(aapl, 1, 0, 500, NOW + i * 137))), unit: 'us/call', target: 150 });
  out.push({ name: 'market kline 1m x500 BTCUSDT, random end (mostly uncached)', value: r(perCall((i) => mk.klines(btc, 1, 1_700_000_000 + ((i * 7_919_993) % 60_000_000), 500, NOW), 800, 2000)), unit: 'us/call', target: null });
  const fresh = new SyntheticMarket(42);
  out.push({ name: 'market kline 1d x500 BTCUSDT cold', value: r(once(() => fresh.klines(btc, 8, 0, 500, NOW))), unit: 'ms', target: null });
  out.push({ name: 'market kline 1d x500 BTCUSDT warm', value: r(perCall((i) => fresh.klines(btc, 8, 0, 500, NOW + i * 137))), unit: 'us/call', target: null });
  out.push({ name: 'market kline 1mo x60 AAPL.US cold', value: r(once(() => fresh.klines(aapl, 10, 0, 60, NOW))), unit: 'ms', target: null });
  out.push({ name: 'market kline 1mo x60 AAPL.US warm', value: r(perCall((i) => fresh.klines(aapl, 10, 0, 60, NOW + i * 137))), unit: 'us/call', target: null });
  // Closed-minute aggregation throughput: a month of crypto 1m bars folded into one bar.
  const agg = new SyntheticMarket(43);
  const ms = once(() => agg.klines(btc, 10, Date.parse('2026-03-15T00:00:00Z') / 1000, 1, NOW));
  out.push({ name: 'market 1m bars aggregated (cold month of BTCUSDT)', value: Math.round((31 * 1440) / (ms / 1000)), unit: 'bars/s', target: null });
  out.push({ name: 'market depth BTCUSDT', value: r(perCall((i) => mk.depth(btc, NOW + i * 137))), unit: 'us/call', target: null });
  out.push({ name: 'market trade BTCUSDT', value: r(perCall((i) => mk.trade(btc, NOW + i * 137))), unit: 'us/call', target: null });
  return out;
}
