import { barEnd } from '../../catalog/bar-grid.js';
import { isMultiHourKlineType } from '../../catalog/intervals.js';
import type { Clock } from '../../core/clock.js';
import type { EmulatorBackends } from '../backends.js';
import type { HaltExchange, WireHaltRecord, WireKline } from '../contracts.js';
import type { Behaviours } from './behaviours.js';
import { existingKlines, isMissingBar } from './kline-page.js';

export interface TruthKlineOptions {
  /** Whose behaviours decide the missing bars (a plans-file token with its own spec); default the emulator's spec. */
  token?: string;
  /** Leave out the newest bar while its grid cell has not ended at nowMs (it is still forming). */
  closedOnly?: boolean;
}

/**
 * What the service holds, for tests: never on an HTTP path, never shaped by the answer behaviours
 * (no short pages, no order, no number forms, no extra fields, no duplicates), only by what exists.
 */
export interface GroundTruth {
  /**
   * Every bar of (code, klineType) with fromSec <= timestamp <= toSec as of nowMs (default the
   * emulator clock), ascending, in canonical text (the product's fixed decimals); bars removed by
   * `missing-bars` are absent. The bar whose cell contains nowMs is forming: included with its
   * values at nowMs (an answer at the same instant serves exactly these), unless `closedOnly`.
   * Throws RangeError for an unknown code (exact case) or a kline_type the product does not serve.
   */
  klines(code: string, klineType: number, fromSec: number, toSec: number, nowMs?: number, options?: TruthKlineOptions): WireKline[];
  /** Whether the bar at exactly this open time is one of the missing bars (false for a day, week or month). */
  isMissing(code: string, klineType: number, timestampSec: number, token?: string): boolean;
  /** The distinct halt records of the last year as of nowMs (default the emulator clock), newest first. */
  halts(exchange: HaltExchange, nowMs?: number): WireHaltRecord[];
}

const PAGE = 500;

export function createGroundTruth(
  backends: EmulatorBackends,
  clock: Clock,
  behavioursOf: (token: string | undefined) => Behaviours | undefined,
): GroundTruth {
  const missing = (token: string | undefined): { seed: number; rate: number } => {
    const b = behavioursOf(token);
    return { seed: b?.seed ?? 0, rate: b?.spec.missingBars ?? 0 };
  };
  const product = (code: string, klineType: number) => {
    const p = backends.findProduct(code);
    if (p === undefined || p.code !== code) throw new RangeError(`ground truth: unknown code ${JSON.stringify(code)}`);
    if (!Number.isInteger(klineType) || klineType < 1 || klineType > 10 || (isMultiHourKlineType(klineType) && !p.supportsMultiHourBars)) {
      throw new RangeError(`ground truth: kline_type ${String(klineType)} is not served for ${code}`);
    }
    return p;
  };
  return {
    klines(code, klineType, fromSec, toSec, nowMs = clock.now(), options = {}) {
      const p = product(code, klineType);
      if (!(Number.isInteger(fromSec) && Number.isInteger(toSec))) throw new RangeError('ground truth: fromSec and toSec must be integers');
      const { seed, rate } = missing(options.token);
      const out: WireKline[] = [];
      let end = Math.max(1, toSec);
      // Walk back a page at a time, exactly as a client with kline_timestamp_end would, until past fromSec.
      for (;;) {
        const page = existingKlines(backends.market, seed, rate, p, klineType, end, PAGE, nowMs);
        for (let i = page.length - 1; i >= 0; i--) {
          const ts = Number(page[i]!.timestamp);
          if (ts >= fromSec && ts <= toSec) out.push(page[i]!);
        }
        const oldest = page.length === 0 ? undefined : Number(page[0]!.timestamp);
        if (page.length < PAGE || oldest === undefined || oldest <= fromSec || oldest <= 1) break;
        end = oldest - 1;
      }
      out.reverse();
      if (options.closedOnly === true) {
        const last = out[out.length - 1];
        if (last !== undefined && barEnd(p, klineType, Number(last.timestamp) * 1000) > nowMs) out.pop();
      }
      return out;
    },
    isMissing(code, klineType, timestampSec, token) {
      const { seed, rate } = missing(token);
      return isMissingBar(seed, rate, product(code, klineType).code, klineType, timestampSec);
    },
    halts(exchange, nowMs = clock.now()) {
      return backends.halts.records(exchange, nowMs);
    },
  };
}
