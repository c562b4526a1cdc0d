/** Public shapes of the service client. Prices stay the wire strings. */
import type { Coordinator } from './admission.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/component.js';
import type { Family } from './family.js';
import type { Timeouts } from './http-transport.js';
import type { PlansDocument } from '../core/plans-file.js';
import type { PlanLimits } from './plans.js';
import type { BatchKlineSeries, DepthTick, HaltResponse, KlineBar, TradeTick } from './schemas.js';
import type { Sleep } from './sleep.js';
import type { QuotaStatus } from './quota-store.js';

export type { BatchKlineSeries, DepthTick, HaltResponse, KlineBar, TradeTick, QuotaStatus };
export type HaltExchange = 'sse' | 'nyse' | 'nasdaq';

export interface RetryOptions {
  /** Attempts per request, the first included (transport errors, 5xx). Default 6. */
  attempts: number;
  /** Backoff base: attempt n waits random(0, min(maxDelayMs, baseDelayMs * 2^n)) ("full jitter"). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Give up once this much clock time has passed since the first attempt. Default 5 minutes. */
  maxTotalMs: number;
  /** 429s re-queued through the limiter before giving up (they do not use up attempts). */
  maxRateLimitRequeues: number;
  /** Random source in [0, 1) for the jitter; inject a seeded one for reproducible tests. */
  random: () => number;
}

export interface RequestInfo {
  /** Endpoint path, e.g. `/quote-stock-b-api/kline` or `/api/suspension/sse`. */
  endpoint: string;
  method: 'GET' | 'POST';
  trace: string;
  /** 1-based attempt of this logical request. */
  attempt: number;
  /** Codes (or batch-kline items) the request carried. */
  codes: number;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** `ret` of a market-data answer, when one was parsed. */
  ret?: number;
  outcome: 'ok' | 'api-error' | 'rate-limited' | 'quota-exhausted' | 'transport-error' | 'aborted';
  /** Clock time of sending and clock duration. */
  sentAt: number;
  durationMs: number;
}

/**
 * One attempt's passage through the daily quota and the limiter, before it is sent. A stop (abort)
 * while waiting is not reported: it is neither a wait that ended nor a refusal.
 */
export interface AdmissionInfo {
  endpoint: string;
  /** Clock ms from asking for the quota and a slot to getting them (or being refused). */
  waitMs: number;
  /** false: refused before the wire (the daily quota is used up, the limiter failed it); never sent. */
  admitted: boolean;
}

/**
 * The quota's view of the attempts: `answered` ones the service counts (all but its 429 refusals),
 * `unknown` ones sent whose answer was lost (a timeout, a reset): the service may have counted
 * them, so they are charged; `unsent` ones never left this process (connection refused, aborted
 * before a socket took them): refunded.
 */
export interface RequestOutcomes {
  answered: number;
  unknown: number;
  unsent: number;
  /** Of `answered`, those the service refused with a 429 `rate limit` (not the daily cap): not charged, sent again. */
  rateLimited: number;
  /**
   * Of `answered`, those the service refused with its 429 `daily limit exceeded`: it counts them
   * toward nothing, and nothing more is sent that day. Optional for clients written before it.
   */
  dailyLimited?: number;
}

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  token: string;
  /** A built-in plan, or a custom plan of `plans`. */
  plan: string;
  /** A plans file's custom plans (its `tokens:` are never read here: the token is `token`). */
  plans?: PlansDocument | undefined;
  /** Holds `quota/<hash16>.json` (the day's count) and `quota/<hash16>.sends.json` (the sends the rate windows still hold, for the next process). */
  stateDir: string;
  /**
   * Save the sends the rate windows still hold when closing, and count an earlier process's before
   * the first request (default true). False for a service that lives and dies with this process
   * (the built-in emulator): its windows start empty each time.
   */
  rememberSends?: boolean;
  /** Prefix of every request trace (`<runId>-<counter>`); default random. */
  runId?: string;
  clock?: Clock;
  /** Must follow `clock`; default `manualSleep(clock)` for a virtual clock (Clock.set), real timers otherwise. */
  sleep?: Sleep;
  /** Zone whose midnight resets the daily quota (L4); default UTC. */
  quotaTimeZone?: string;
  /** Code → family, winning over the catalog. */
  familyOverrides?: Readonly<Record<string, Family>>;
  /** Code → family lookup; default the product catalog, then W11's suffix rule. */
  familyLookup?: (code: string) => Family | undefined;
  timeouts?: Partial<Timeouts>;
  /**
   * Largest answer body accepted, in bytes; a larger one is refused before parsing with
   * ResponseTooLargeError (QL_API_TOO_LARGE), never retried. Default 16 MiB (DEFAULT_MAX_RESPONSE_BYTES).
   */
  maxResponseBytes?: number;
  retry?: Partial<RetryOptions>;
  /**
   * Request lines (debug), retries and 429 holds (info), limiter waits (debug). Default: none.
   * Built by the caller (src/cli); the client never prints on its own.
   */
  logger?: Logger;
  /** Called after every HTTP attempt, for progress and manifests. Must not throw. */
  onRequest?: (info: RequestInfo) => void;
  /** Called when an attempt leaves the limiter and quota, admitted or refused (for metrics). Must not throw. */
  onAdmission?: (info: AdmissionInfo) => void;
  /**
   * Extra ms added to every limit window, for clock granularity (see SlidingWindowLimiter, which
   * already stamps a request at its answer, never before the server saw it). Default: 0 with a
   * virtual clock (Clock.set, e.g. ManualClock), 1 with any other clock.
   */
  marginMs?: number;
  /**
   * Before the limiter waits, let requests on the wire be answered first. Needed with a virtual
   * clock shared with an in-process server, so the server stamps a request at the time the client
   * did. Default: true when `clock` is virtual (Clock.set, e.g. ManualClock), false otherwise.
   */
  settleBeforeSleep?: boolean;
  /** Daily-quota requests reserved per file lock; default the plan's per-second limit. */
  quotaBlockSize?: number;
  /**
   * Shares the plan's windows and the daily count with every process on the token (Redis,
   * `--coordinator`); `stateDir`'s quota file is then not used. Default: this process alone.
   */
  coordinator?: Coordinator;
}

export interface KlineRequest {
  code: string;
  /** 1..10 (spec 2.1). */
  klineType: number;
  /** Unix seconds to walk back from; 0 or absent = newest (W4). */
  endSec?: number;
  /** Bars wanted, 1..500. */
  count: number;
}

export interface KlineResult {
  code: string;
  klineType: number;
  /** In the order the service sent them (W3: sort and de-duplicate downstream). */
  bars: KlineBar[];
  trace: string;
}

export interface TicksResult<T> {
  ticks: T[];
  /** Requested codes the service did not return (never silently dropped). */
  missing: string[];
  /** Codes the service rejected as `code invalid` (ret 600), isolated by bisection (W8). */
  invalid: string[];
  /** Code → the endpoint path its ticks were asked from, as called (e.g. `/quote-b-api/trade-tick`). */
  endpoints?: Record<string, string>;
  /** Tick → when the answer that carried it came (epoch ms): a round's requests may be seconds apart. */
  answeredAtMs?: Map<T, number>;
}

export interface BatchKlineItem {
  code: string;
  klineType: number;
  /** 1 or 2; default 2. */
  count?: number;
  endSec?: number;
}

export interface BatchKlineResult {
  series: BatchKlineSeries[];
  /** Items asked for that did not come back. */
  missing: BatchKlineItem[];
  /** Codes rejected as `code invalid` (ret 600). */
  invalid: string[];
  /** Elements of the answers' series lists that are not a series: left out (their items are missing). */
  malformed: MalformedBatchSeries[];
}

export interface MalformedBatchSeries {
  readonly endpoint: string;
  /** What is wrong, as `kline_list[i].field: problem`. */
  readonly problem: string;
  /** The element as sent, as JSON, cut at 200 characters. */
  readonly excerpt: string;
}

export interface HaltsOptions {
  page?: number;
  size?: number;
  /** Header and body timeout for this (possibly large) answer. */
  timeoutMs?: number;
}

export interface ServiceClient {
  readonly plan: string;
  /** The plan's limits as this client paces to them (a custom plan's included). */
  readonly limits: PlanLimits;
  /**
   * The limits a new stream's calls run under. A token pool keeps each stream on one token (the one
   * it would give the stream now, among those whose plan covers `codes` when some do): a source that is one stream (a poller) counts its rounds on that
   * token's caps and windows, not on the pool's combined `limits`. Absent: `limits` (one token).
   * Read it through streamLimitsOf(client).
   */
  streamLimits?(codes?: readonly string[]): Promise<PlanLimits>;
  readonly runId: string;
  kline(request: KlineRequest, signal?: AbortSignal): Promise<KlineResult>;
  depthTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<DepthTick>>;
  tradeTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<TradeTick>>;
  batchKline(items: readonly BatchKlineItem[], signal?: AbortSignal): Promise<BatchKlineResult>;
  halts(exchange: HaltExchange, options?: HaltsOptions, signal?: AbortSignal): Promise<HaltResponse>;
  quotaStatus(): Promise<QuotaStatus>;
  /** HTTP requests sent so far, per endpoint path (every attempt that left this process counts). */
  requestCounts(): Record<string, number>;
  /**
   * The part of requestCounts() sent by calls whose signal carried no request scope
   * (core/request-scope.ts). A source's reporter reconciles against it, so requests of other runs
   * sharing the client (a worker's concurrent slices) are never taken for its own. Absent, or
   * undefined from a wrapper whose inner client lacks it: the reporter reconciles against
   * requestCounts(), which is right when one run uses the client.
   */
  unscopedRequestCounts?(): Record<string, number> | undefined;
  /** What became of the attempts so far (see RequestOutcomes); absent on clients that do not track it. */
  requestOutcomes?(): RequestOutcomes;
  /**
   * Text with this client's tokens redacted: for what the service sent that goes to a file (a
   * rejected record whose field echoes the request URL would otherwise carry the token there).
   */
  redact?(text: string): string;
  /** Returns the unused quota reserve and closes the connections. */
  close(): Promise<void>;
}
