import { findProduct } from '../../../src/catalog/index.js';
import type { Product } from '../../../src/catalog/types.js';
import type { WireKline } from '../../../src/emulator/contracts.js';
import type { SyntheticMarket } from '../../../src/emulator/market/index.js';

export const ms = (iso: string): number => Date.parse(iso);
export const tsMs = (k: WireKline): number => Number(k.timestamp) * 1000;

export function product(code: string): Product {
  const p = findProduct(code);
  if (p === undefined) throw new Error(`no product ${code}`);
  return p;
}

/** Scaled BigInt of a decimal text with exactly `decimals` decimals (throws otherwise). */
const decimalPatterns = new Map<number, RegExp>();
export function scaled(text: string, decimals: number): bigint {
  let re = decimalPatterns.get(decimals);
  if (re === undefined) {
    re = decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${decimals}}$`);
    decimalPatterns.set(decimals, re);
  }
  if (!re.test(text)) throw new Error(`${text} does not have exactly ${decimals} decimals`);
  return BigInt(text.replace('.', ''));
}

/** Every 1m bar with open time in [fromMs, toMs), walking back from toMs with kline_timestamp_end. */
export function minuteBarsBetween(mk: SyntheticMarket, p: Product, fromMs: number, toMs: number, nowMs: number): WireKline[] {
  const out: WireKline[] = [];
  let end = Math.floor((toMs - 1) / 1000);
  for (;;) {
    const page = mk.klines(p, 1, end, 500, nowMs);
    const inRange = page.filter((k) => tsMs(k) >= fromMs && tsMs(k) < toMs);
    out.unshift(...inRange);
    const first = page[0];
    if (first === undefined || page.length < 500 || tsMs(first) < fromMs) break;
    end = Number(first.timestamp) - 1;
  }
  return out;
}

/** Exact aggregate of 1m bars, formatted like the wire. */
export function aggregate(p: Product, bars: WireKline[], timestamp: string): WireKline {
  const pd = p.priceDecimals;
  const vd = p.volumeDecimals;
  const fmt = (n: bigint, d: number): string => {
    if (d === 0) return n.toString();
    const s = n.toString().padStart(d + 1, '0');
    return `${s.slice(0, s.length - d)}.${s.slice(s.length - d)}`;
  };
  let hi = -1n;
  let lo = -1n;
  let vol = 0n;
  let turn = 0n;
  for (const b of bars) {
    const h = scaled(b.high_price, pd);
    const l = scaled(b.low_price, pd);
    if (hi < 0n || h > hi) hi = h;
    if (lo < 0n || l < lo) lo = l;
    vol += scaled(b.volume, vd);
    turn += scaled(b.turnover, pd + vd);
  }
  return {
    timestamp,
    open_price: bars[0]!.open_price,
    close_price: bars[bars.length - 1]!.close_price,
    high_price: fmt(hi, pd),
    low_price: fmt(lo, pd),
    volume: fmt(vol, vd),
    turnover: fmt(turn, pd + vd),
  };
}
