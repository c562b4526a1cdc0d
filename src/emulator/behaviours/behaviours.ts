import type { Product } from '../../catalog/types.js';
import type { MarketBackend } from '../backends.js';
import type { HaltExchange, WireHaltRecord, WireKline } from '../contracts.js';
import { fnv1a } from '../random/index.js';
import type { MarketOperation } from '../routes/route-table.js';
import { isBehaviourFree, type BehaviourSpec } from './behaviour-spec.js';
import { AnswerDecorator, decorateHaltAnswer, decorateMarketAnswer } from './decorate-answer.js';
import { draw, shuffled, TAG } from './draw.js';
import { withHaltDuplicates } from './halt-duplicates.js';
import { existingKlines, klinePage, ordered } from './kline-page.js';
import { keptCodes } from './omit-codes.js';

/**
 * The behaviours of one spec under the emulator's seed, as the routes use them. One seed for every
 * token (a token's own spec changes rates, not draws), so missing bars are the same for all tokens
 * with the same rate.
 */
export class Behaviours {
  readonly active: boolean;
  constructor(
    readonly spec: BehaviourSpec,
    readonly seed: number,
  ) {
    this.active = !isBehaviourFree(spec);
  }

  /** R1, R2: the bars of one /kline answer. */
  klinePage(market: MarketBackend, product: Product, klineType: number, endSec: number, count: number, nowMs: number): WireKline[] {
    return klinePage(market, this.seed, this.spec, product, klineType, endSec, count, nowMs);
  }

  /** R1 (missing bars) and R2 (order of each list and of the items) for /batch-kline. */
  batchItems(
    market: MarketBackend,
    items: readonly { product: Product; klineType: number; endSec: number; count: number }[],
    nowMs: number,
    trace: string,
  ): { code: string; kline_type: number; kline_data: WireKline[] }[] {
    const salt = fnv1a(trace);
    const out = items.map((it, i) => {
      const bars = existingKlines(market, this.seed, this.spec.missingBars, it.product, it.klineType, it.endSec, it.count, nowMs);
      return { code: it.product.code, kline_type: it.klineType, kline_data: ordered(bars, this.seed, this.spec, salt, i) };
    });
    return this.spec.shuffle > 0 && out.length > 1 && draw(this.seed, TAG.batchShuffle, salt) < this.spec.shuffle
      ? shuffled(out, this.seed, TAG.batchShuffle, salt, 1)
      : out;
  }

  /** R7: the products a depth/trade answer covers. */
  keptProducts(products: readonly Product[], nowMs: number, trace: string): Product[] {
    return keptCodes(products, this.seed, this.spec.omitCodes, nowMs, trace);
  }

  /** R4, R5 on a successful market-data envelope. */
  decorateMarket(op: MarketOperation, body: Record<string, unknown>, nowMs: number, trace: string): Record<string, unknown> {
    if (this.spec.numberForms <= 0 && this.spec.extraFields <= 0) return body;
    return decorateMarketAnswer(op, body, new AnswerDecorator(this.seed, this.spec, fnv1a(trace) ^ Math.floor(nowMs / 1000)));
  }

  /** R6 on the records of one suspension answer. */
  haltData(
    exchange: HaltExchange,
    all: readonly WireHaltRecord[],
    data: WireHaltRecord[],
    paging: { page: number; size: number } | null,
    nowMs: number,
  ): WireHaltRecord[] {
    return withHaltDuplicates(all, data, paging, this.seed, this.spec.haltDuplicates, haltKey(exchange, paging, nowMs));
  }

  /** R5 on a successful suspension envelope. */
  decorateHalt(exchange: HaltExchange, body: Record<string, unknown>, paging: { page: number; size: number } | null, nowMs: number): Record<string, unknown> {
    if (this.spec.extraFields <= 0) return body;
    const [a, b, c, d] = haltKey(exchange, paging, nowMs);
    return decorateHaltAnswer(body, new AnswerDecorator(this.seed, this.spec, a! ^ Math.imul(b!, 31) ^ Math.imul(c!, 977) ^ d!));
  }
}

function haltKey(exchange: HaltExchange, paging: { page: number; size: number } | null, nowMs: number): number[] {
  return [fnv1a(exchange), paging?.page ?? 0, paging?.size ?? 0, Math.floor(nowMs / 1000)];
}

