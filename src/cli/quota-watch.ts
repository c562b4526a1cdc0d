/**
 * Sources stop cleanly when the daily quota runs out (they note it and end), so the run itself
 * succeeds. The CLI still has to exit 75 with the reset instant: it hands the sources a client that
 * remembers the first QuotaExhaustedError passing through it.
 */
import type {
  BatchKlineItem,
  BatchKlineResult,
  DepthTick,
  HaltExchange,
  HaltResponse,
  HaltsOptions,
  KlineRequest,
  KlineResult,
  PlanLimits,
  QuotaStatus,
  RequestOutcomes,
  ServiceClient,
  TicksResult,
  TradeTick,
  TokenUsage,
} from '../api/index.js';
import { streamLimitsOf, tokenUsageOf } from '../api/index.js';
import { QuotaExhaustedError } from '../core/errors.js';

export class QuotaWatchingClient implements ServiceClient {
  #seen: QuotaExhaustedError | undefined;

  constructor(private readonly inner: ServiceClient) {}

  get plan() {
    return this.inner.plan;
  }
  get limits() {
    return this.inner.limits;
  }
  /** A pool's token for a new stream: a wrapper that dropped it would plan a poller on the pool's combined limits. */
  streamLimits(codes?: readonly string[]): Promise<PlanLimits> {
    return streamLimitsOf(this.inner, codes);
  }
  get runId() {
    return this.inner.runId;
  }
  redact(text: string): string {
    return this.inner.redact?.(text) ?? text;
  }
  /** The first quota error any call raised, if one did. */
  exhausted(): QuotaExhaustedError | undefined {
    return this.#seen;
  }

  private async watch<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (e) {
      if (e instanceof QuotaExhaustedError) this.#seen ??= e;
      throw e;
    }
  }

  kline(request: KlineRequest, signal?: AbortSignal): Promise<KlineResult> {
    return this.watch(this.inner.kline(request, signal));
  }
  depthTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<DepthTick>> {
    return this.watch(this.inner.depthTicks(codes, signal));
  }
  tradeTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<TradeTick>> {
    return this.watch(this.inner.tradeTicks(codes, signal));
  }
  batchKline(items: readonly BatchKlineItem[], signal?: AbortSignal): Promise<BatchKlineResult> {
    return this.watch(this.inner.batchKline(items, signal));
  }
  halts(exchange: HaltExchange, options?: HaltsOptions, signal?: AbortSignal): Promise<HaltResponse> {
    return this.watch(this.inner.halts(exchange, options, signal));
  }
  quotaStatus(): Promise<QuotaStatus> {
    return this.inner.quotaStatus();
  }
  requestCounts(): Record<string, number> {
    return this.inner.requestCounts();
  }
  unscopedRequestCounts(): Record<string, number> | undefined {
    return this.inner.unscopedRequestCounts?.();
  }
  requestOutcomes(): RequestOutcomes {
    return this.inner.requestOutcomes?.() ?? { answered: 0, unknown: 0, unsent: 0, rateLimited: 0, dailyLimited: 0 };
  }
  /** Per-token counters of a token pool (for metrics); empty with one token. */
  tokenUsage(): readonly TokenUsage[] {
    return tokenUsageOf(this.inner) ?? [];
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
