/**
 * Which ticks of one snapshot round can be stored. The service answers per request, and nothing in
 * the spec stops it from sending more than asked: a tick of a code no request of the round asked
 * for is rejected naming its code (it belongs to no series of this pipeline), never stored. Two
 * ticks of one code with one `seq` (the dataset's key) are one tick when they hold the same values
 * (R4: "1.5" is "1.50"), and are all rejected when they differ: nothing says which one is true, and
 * the merge would otherwise keep one of them without a word. A tick stamped after its answer came
 * (beyond the service's clock skew) cannot have happened: a trade of 2100 would otherwise open a
 * partition decades ahead.
 */
import { compareDecimal } from '../../core/decimal-compare.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import { quoteValue } from '../../core/field-failure.js';
import { MAX_EPOCH_MS, TIME_MALFORMED } from '../../core/time.js';
import { DUPLICATE_CONFLICT, ECHO_MISMATCH, TICK_IN_FUTURE } from '../../core/reject-codes.js';
import { FUTURE_SKEW_MS } from './kline-records.js';

export interface CheckedTick<T> {
  readonly tick: T;
  readonly flaw?: RecordFlaw;
}

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Equal wire values: two plain decimal texts are equal when their values are (R4). */
function sameText(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'string' && typeof b === 'string' && PLAIN_DECIMAL.test(a) && PLAIN_DECIMAL.test(b) && compareDecimal(a, b) === 0;
}

/** Book sides equal on what is stored of a level (its price and volume; unknown fields are ignored, R5). */
function sameLevels(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return sameText(a, b);
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i] as unknown;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return x === y;
    const l = x as Record<string, unknown>;
    const m = y as Record<string, unknown>;
    return sameText(l.price, m.price) && sameText(l.volume, m.volume);
  });
}

/** Two ticks (the client kept their documented fields only) that hold the same values. */
function sameTick(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => (k === 'bids' || k === 'asks' ? sameLevels(x[k], y[k]) : sameText(x[k], y[k])));
}

/** Why a tick's time cannot be, or undefined; a time that is not 1 to 15 digits is parse-decimals' to name. */
function futureFlaw(tick: unknown, answeredAtMs: number): RecordFlaw | undefined {
  const text = tick !== null && typeof tick === 'object' ? (tick as Record<string, unknown>).tick_time : undefined;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) return undefined;
  const ms = Number(text);
  // No TIMESTAMP column holds it: the documented code says so, not the skew check it also fails.
  if (ms > MAX_EPOCH_MS) return { code: TIME_MALFORMED, field: 'tick_time', value: text, reason: `${quoteValue(text)} is beyond year 9999 in Unix milliseconds` };
  if (ms <= answeredAtMs + FUTURE_SKEW_MS) return undefined;
  return { code: TICK_IN_FUTURE, field: 'tick_time', value: text, reason: `${new Date(ms).toISOString()} is after the answer was received (${new Date(answeredAtMs).toISOString()})` };
}

function field(tick: unknown, name: 'code' | 'seq'): string | undefined {
  const value = tick !== null && typeof tick === 'object' ? (tick as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** `path`: the operation, for the reason (`trade-tick`, `depth-tick`); `answeredAtMs`: when a tick's answer came. */
export function checkRoundTicks<T>(ticks: readonly T[], asked: ReadonlySet<string>, path: string, answeredAtMs: (tick: T) => number): CheckedTick<T>[] {
  const out: CheckedTick<T>[] = [];
  const byKey = new Map<string, { first: number; copies: number[] }>();
  for (const tick of ticks) {
    const code = field(tick, 'code');
    if (code !== undefined && !asked.has(code)) {
      out.push({ tick, flaw: { code: ECHO_MISMATCH, field: 'code', value: code, reason: `${JSON.stringify(code)} was not asked for in this round's /${path} requests` } });
      continue;
    }
    const future = futureFlaw(tick, answeredAtMs(tick));
    if (future !== undefined) {
      out.push({ tick, flaw: future });
      continue;
    }
    const seq = field(tick, 'seq');
    if (code === undefined || seq === undefined) {
      out.push({ tick }); // parse-decimals names what is wrong with it
      continue;
    }
    const key = `${code}\u0000${seq}`;
    const group = byKey.get(key);
    if (group === undefined) {
      byKey.set(key, { first: out.length, copies: [out.length] });
      out.push({ tick });
    } else if (!group.copies.some((i) => sameTick(out[i]!.tick, tick))) {
      group.copies.push(out.length);
      out.push({ tick });
    }
  }
  for (const [key, group] of byKey) {
    if (group.copies.length < 2) continue;
    const [code, seq] = key.split('\u0000') as [string, string];
    const flaw: RecordFlaw = { code: DUPLICATE_CONFLICT, field: 'seq', value: seq, reason: `${group.copies.length} different ticks of ${code} with seq ${seq} in one round: none is kept` };
    for (const i of group.copies) out[i] = { tick: out[i]!.tick, flaw };
  }
  return out;
}
