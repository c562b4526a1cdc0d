/**
 * The stock market an All-* style plan is limited to (all-hk, all-cn, all-us, or a custom plan's
 * `market`), and which codes of a `ret 604` answer lie outside it. The service refuses a whole
 * request for one such code, so the answer alone would blame every code it carried.
 */
import { findProduct } from '../catalog/index.js';
import type { StockMarket } from '../catalog/types.js';
import type { PlanLimits } from './plans.js';
import type { HaltExchange } from './types.js';

const SUFFIXES: Readonly<Record<StockMarket, string>> = { HK: '.HK', CN: '.SH/.SZ', US: '.US' };

/** Codes the plan of `market` does not cover: anything but the catalog's stocks of that market (an unknown code included). */
export function codesOutsideMarket(codes: readonly string[], market: StockMarket): string[] {
  return codes.filter((code) => {
    const product = findProduct(code);
    return product === undefined || product.family !== 'stock' || product.market !== market;
  });
}

const STOCK_SUFFIX = /\.(US|HK|SH|SZ)$/;
const MARKET_OF_SUFFIX: Readonly<Record<string, StockMarket>> = { US: 'US', HK: 'HK', SH: 'CN', SZ: 'CN' };

/**
 * Codes a pipeline asks for that a plan of `market` will refuse (604), known before any request:
 * the catalog's products as codesOutsideMarket reads them; a code outside the catalog (declared by
 * a snapshot pipeline) by its suffix, as a stock of that market is covered though we do not list it.
 */
export function codesPlanRefuses(codes: readonly string[], market: StockMarket): string[] {
  return codes.filter((code) => {
    if (findProduct(code) !== undefined) return codesOutsideMarket([code], market).length > 0;
    const suffix = STOCK_SUFFIX.exec(code)?.[1];
    return suffix === undefined || MARKET_OF_SUFFIX[suffix] !== market;
  });
}

/** What to do about a 604 of a plan limited to `market`. */
export function marketPlanHint(plan: string, market: StockMarket): string {
  return `plan ${plan} covers only ${market} stocks (${SUFFIXES[market]}): drop the codes outside it from codes, or fetch them with a token on a plan that covers them`;
}

/** Codes that every one of these plans refuses (a pool's tokens): none when one plan covers every market. */
export function codesEveryPlanRefuses(codes: readonly string[], plans: readonly PlanLimits[]): string[] {
  let refused = [...codes];
  for (const plan of plans) {
    if (plan.market === undefined) return [];
    const outside = new Set(codesPlanRefuses(refused, plan.market));
    refused = refused.filter((code) => outside.has(code));
  }
  return refused;
}

/** What to do about codes no token of a pool may fetch: each token's plan names the market it covers. */
export function poolMarketHint(plans: readonly PlanLimits[]): string {
  const covers = [...new Set(plans.map((p) => `${p.name} covers only ${p.market} stocks (${SUFFIXES[p.market!]})`))];
  return `no token of the pool is on a plan that covers them (${covers.join('; ')}): drop those codes from codes, or add to the pool a token on a plan that covers them`;
}

/**
 * What to do about a 604 of a pool none of whose tokens covers every code of the request: the codes
 * no token covers need another token; else the request mixes markets each token covers part of,
 * which a pipeline per market avoids. As `quotelake plan` says it beforehand.
 */
export function poolRefusalHint(codes: readonly string[], plans: readonly PlanLimits[]): string {
  const none = codesEveryPlanRefuses(codes, plans);
  if (none.length === 0) return poolMixedMarketsHint(plans);
  if (none.length === codes.length) return poolMarketHint(plans);
  // Both at once: "them" of the pool's hint would take in codes a token does cover.
  return `${none.join(',')}: ${poolMarketHint(plans)}; the others mix markets that no one token covers: give each market a pipeline of its own`;
}

/** Whether a plan serves every one of `codes` (a plan without `market` serves them all): what a pool places a call by. */
export function planCoversCodes(plan: PlanLimits, codes: readonly string[]): boolean {
  return plan.market === undefined || codesPlanRefuses(codes, plan.market).length === 0;
}

/** The exchanges whose halts a plan limited to a market is answered for (the emulator's rule, README "Plans"). */
const HALT_EXCHANGES: Readonly<Record<StockMarket, readonly HaltExchange[]>> = { HK: [], CN: ['sse'], US: ['nyse', 'nasdaq'] };

/** Whether a plan is answered for an exchange's halts (a plan without `market`: every exchange). */
export function planCoversExchange(plan: PlanLimits, exchange: HaltExchange): boolean {
  return plan.market === undefined || HALT_EXCHANGES[plan.market].includes(exchange);
}

/** What to do about a poller whose codes span markets no one token of the pool covers: its requests carry them together. */
export function poolMixedMarketsHint(plans: readonly PlanLimits[]): string {
  const covers = [...new Set(plans.map((p) => (p.market === undefined ? `${p.name} covers every market` : `${p.name} covers only ${p.market} stocks (${SUFFIXES[p.market]})`)))];
  return `a polling source's request carries the codes of several markets together, and no token of the pool covers them all (${covers.join('; ')}): give each market a pipeline of its own, or add to the pool a token on a plan that covers them all`;
}
