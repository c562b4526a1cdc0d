/**
 * The plan-aware service client: every request passes, in this order, a concurrency slot, the
 * sliding-window limiter, the daily quota, then the wire; answers are validated per endpoint, and
 * failures are retried (through the limiter again) or raised as typed errors.
 */
import { randomBytes } from 'node:crypto';
import pRetry from 'p-retry';
import { parseJsonExact } from '../core/exact-json.js';
import { findProduct } from '../catalog/index.js';
import { isVirtualClock, systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/component.js';
import { logsAt, silentLogger } from '../core/log-helpers.js';
import { requestScopeOf } from '../core/request-scope.js';
import { settleRequests } from './settle-requests.js';
import { RetryAfterBeyondBudgetError } from './retry-after-budget.js';
import { sayAttempts } from './attempts-said.js';
import { checkClientOptionKeys } from './client-option-keys.js';
import { tokenProblem, usableToken } from './token-problem.js';
import {
  AbortedError,
  ApiError,
  ConfigError,
  QuotaExhaustedError,
  QuotelakeError,
  ResponseShapeError,
  TransportError,
} from '../core/errors.js';
import { getTarget, splitByCapAndBudget } from './batching.js';
import { groupBy } from '../core/group-by.js';
import { createFamilyResolver, familyPrefix, type Family } from './family.js';
import { DEFAULT_TIMEOUTS, HttpTransport, type HttpResponse, type Timeouts } from './http-transport.js';
import { isUnlimited, pacesAnything, planLimits, type PlanLimits } from './plans.js';
import { codesOutsideMarket, marketPlanHint } from './plan-market.js';
import type { LimiterPort, QuotaPort } from './admission.js';
import { QuotaStore, tokenHash16 } from './quota-store.js';
import { carriedHolds, RecentSends, type CarriedHold } from './recent-sends.js';
import { SlidingWindowLimiter, type Permit, type WindowRule } from './rate-limiter.js';
import { redactText } from '../core/redact.js';
import { baseUrlProblem } from '../core/base-url.js';
import {
  batchKlineDataSchema,
  depthDataSchema,
  haltErrorSchema,
  haltResponseSchema,
  klineDataSchema,
  marketEnvelopeSchema,
  tradeDataSchema,
  type BatchKlineSeries,
  type DepthTick,
  type HaltResponse,
  type TradeTick,
} from './schemas.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { scanKlinePage } from './kline-page-scan.js';
import { barsIn, seriesOfList } from './batch-series-list.js';
import { abortReason, manualSleep, systemSleep, type Sleep } from './sleep.js';
import type {
  AdmissionInfo,
  BatchKlineItem,
  BatchKlineResult,
  ClientOptions,
  HaltExchange,
  HaltsOptions,
  KlineBar,
  KlineRequest,
  KlineResult,
  MalformedBatchSeries,
  RequestInfo,
  RequestOutcomes,
  RetryOptions,
  ServiceClient,
  TicksResult,
} from './types.js';
import type { z } from 'zod';

export const DEFAULT_RETRY: Omit<RetryOptions, 'random'> = {
  attempts: 6,
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  maxTotalMs: 300_000,
  maxRateLimitRequeues: 50,
};

/** Times codes left out of a depth/trade answer are asked for again before they are reported missing. */
const MISSING_CODE_ROUNDS = 2;

/**
 * Requests in flight (and connections) when the plan has no per-second limit to size them by: enough
 * to keep a local emulator busy on every core, few enough not to exhaust sockets.
 */
const UNLIMITED_IN_FLIGHT = 32;

/** How long (real time) a settle waits for the wire before letting a virtual clock move anyway. */
const SETTLE_CAP_MS = 2000;

/** One HTTP exchange, described so it can be rebuilt with a fresh trace on every attempt. */
interface Operation<T> {
  endpoint: string;
  method: 'GET' | 'POST';
  codes: readonly string[];
  rules: readonly WindowRule[];
  build(trace: string): { target: string; body?: string; headers?: Record<string, string> };
  /** `answeredAtMs`: when the answer's headers came (the clock may move on before the parse). */
  parse(response: HttpResponse, trace: string, answeredAtMs: number): T;
  timeoutMs?: number;
  /** Attempts and total time for this operation when they differ from the client's retry options. */
  retry?: { attempts: number; maxTotalMs: number };
  /** Rows (bars, ticks, halts) in a parsed answer, for the request's debug line. */
  rows?(value: T): number;
}

/**
 * A suspension endpoint admits one request a minute (L5), so each retry waits about a minute for
 * its slot: it gets more attempts, and a time budget that counts those waits on top of the backoff.
 */
const SUSPENSION_ATTEMPTS = 10;

/** A wait an earlier run's request imposes (recent-sends.ts) from this long on is said: shorter ones pass unnoticed. */
const LONG_CARRIED_HOLD_MS = 10_000;

/** A minimum gap between requests of one key; none for a gap of 0. */
function gapRule(key: string, gapMs: number): WindowRule[] {
  return gapMs > 0 ? [{ key, limit: 1, windowMs: gapMs }] : [];
}

/** Marks an ApiError as the service's per-second/minute 429 (re-queued, never a failure). */
function isRateLimited(error: unknown): boolean {
  return error instanceof ApiError && error.ret === 429;
}

function isDailyLimit(text: string): boolean {
  return /daily limit/i.test(text);
}

function isRateLimitText(text: string): boolean {
  return /rate limit/i.test(text);
}

/** A suspension error text that says the service is passing through a bad moment (R3), not that the request is wrong. */
function isPassingText(text: string): boolean {
  return /unavailable|busy|overload|try again|timed? ?out|maintenance|internal (server )?error/i.test(text) && !/token/i.test(text);
}

/** Retry-After (R3): delta-seconds or an HTTP date; undefined when absent, unreadable, 0 or past (use the backoff). */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - nowMs;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** The wait a failed attempt's answer asked for, kept beside the error it became. */
const askedWait = new WeakMap<object, number>();

/** Errors of attempts that were put on the wire (counted as sent), so a retry is one request more. */
const sentAttempts = new WeakSet<object>();

/**
 * A client for one token on one plan. It runs at the plan's full rate and never above it (every
 * request waits for the sliding windows of limits-rules.md, and a 429 that still arrives is
 * re-queued), stops with QuotaExhaustedError before the daily cap, retries transport failures with
 * full-jitter backoff, and never shows the token in any message. Call close() when done: it gives
 * the unused part of the quota reservation back and closes the connections.
 */
export function createClient(options: ClientOptions): ServiceClient {
  return new QuotelakeClient(options);
}

class QuotelakeClient implements ServiceClient {
  readonly plan;
  readonly runId: string;
  readonly limits: PlanLimits;
  /** An ES private field: invisible to util.inspect and JSON, so a debug dump cannot show it. */
  readonly #token: string;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  /** In-process, or shared through options.coordinator (the same rules). */
  private readonly limiter: LimiterPort;
  private readonly quota: QuotaPort;
  private readonly http: HttpTransport;
  private readonly basePath: string;
  private readonly familyOf: (code: string) => Family;
  private readonly retry: RetryOptions;
  private readonly onRequest: ((info: RequestInfo) => void) | undefined;
  private readonly onAdmission: ((info: AdmissionInfo) => void) | undefined;
  private readonly logger: Logger;
  private readonly counts = new Map<string, number>();
  /** The part of `counts` no request scope was told of (see unscopedRequestCounts). */
  private readonly unscoped = new Map<string, number>();
  private readonly outcomes: Required<RequestOutcomes> = { answered: 0, unknown: 0, unsent: 0, rateLimited: 0, dailyLimited: 0 };
  private traceCounter = 0;
  /** Attempts taking their quota, not yet queued at the limiter (a virtual clock waits for them). */
  private preparing = 0;
  private idleWaiters: (() => void)[] = [];
  /** close() waiting for the attempts still taking their quota (`preparing`) to reach the limiter or fail. */
  private preparedWaiters: (() => void)[] = [];
  private closed = false;
  /** The in-process limiter and its sends carried between processes on the token (none when shared or unpaced). */
  private readonly carried: { readonly sends: RecentSends; readonly limiter: SlidingWindowLimiter } | undefined;
  private seeded: Promise<void> | undefined;
  /** Gaps earlier runs on the token left holding (recent-sends.ts), until this process's first request at each. */
  private carriedHolds: Map<string, CarriedHold> | undefined;

  constructor(options: ClientOptions) {
    checkClientOptionKeys(options);
    this.limits = planLimits(options.plan, options.plans);
    this.plan = this.limits.name;
    const token = usableToken(options.token);
    if (token === undefined) {
      throw new ConfigError(`createClient: token ${tokenProblem(options.token)}`, {}, undefined, 'give the service token: createClient({ token }) (the CLI reads QUOTELAKE_TOKEN or --token)');
    }
    // The command line checks the same rule where the URL is given; a library caller gets it here.
    const urlProblem = baseUrlProblem(String(options.baseUrl));
    if (urlProblem !== undefined) throw new ConfigError(`createClient: ${urlProblem.message}`, {}, undefined, urlProblem.hint);
    // Its daily quota and recent sends are kept there: without it a JavaScript caller met a bare TypeError of node:path.
    if (typeof options.stateDir !== 'string' || options.stateDir.trim() === '') {
      const given = options.stateDir === undefined ? 'missing' : `${JSON.stringify(options.stateDir) ?? String(options.stateDir)}, not a folder`;
      throw new ConfigError(`createClient: stateDir is ${given}`, {}, undefined, "give the folder for the client's quota files: createClient({ stateDir: 'lake/.state' }) (the CLI uses the output's .state or --state-dir)");
    }
    this.#token = token;
    this.runId = options.runId ?? `ql${randomBytes(4).toString('hex')}`;
    // Virtual time: a virtual clock (Clock.set) only moves when someone sleeps, so the limiter must
    // let the wire settle first and needs no margin. Any other clock (systemClock included) is real time.
    const virtual = isVirtualClock(options.clock);
    this.clock = options.clock ?? systemClock;
    this.sleep = options.sleep ?? (isVirtualClock(options.clock) ? manualSleep(options.clock) : systemSleep);
    const settle = options.settleBeforeSleep ?? virtual;
    this.logger = options.logger ?? silentLogger;
    const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    if (options.coordinator) {
      const shared = options.coordinator.admission({
        tokenHash: tokenHash16(token),
        limits: this.limits,
        clock: this.clock,
        virtualClock: virtual,
        sleep: settle ? this.settledSleep.bind(this) : this.sleep,
        marginMs: options.marginMs ?? (virtual ? 0 : 1),
        maxInFlight: this.inFlightCap(),
        timeZone: options.quotaTimeZone ?? 'UTC',
        requestTimeoutMs: timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs,
        logger: this.logger,
      });
      this.limiter = shared.limiter;
      this.quota = shared.quota;
    } else {
      const limiter = new SlidingWindowLimiter({
        clock: this.clock,
        logger: this.logger,
        sleep: settle ? this.settledSleep.bind(this) : this.sleep,
        marginMs: options.marginMs ?? (virtual ? 0 : 1),
        // As many in flight as the per-second window admits.
        maxInFlight: this.inFlightCap(),
      });
      this.limiter = limiter;
      if (options.rememberSends !== false && pacesAnything(this.limits)) this.carried = { sends: new RecentSends(options.stateDir, token, this.clock), limiter };
      this.quota = new QuotaStore({
        stateDir: options.stateDir,
        token,
        limit: this.limits.perDay,
        clock: this.clock,
        timeZone: options.quotaTimeZone ?? 'UTC',
        blockSize: options.quotaBlockSize ?? this.inFlightCap(),
      });
    }
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.http = new HttpTransport(base.origin, this.#token, this.inFlightCap(), timeouts, options.maxResponseBytes);
    this.familyOf = createFamilyResolver(
      options.familyLookup ?? ((code) => findProduct(code)?.family),
      options.familyOverrides,
    );
    this.retry = { ...DEFAULT_RETRY, random: Math.random, ...options.retry };
    this.onRequest = options.onRequest;
    this.onAdmission = options.onAdmission;
  }

  // ---------------------------------------------------------------- public operations

  async kline(request: KlineRequest, signal?: AbortSignal): Promise<KlineResult> {
    const endpoint = `${familyPrefix(this.familyOf(request.code))}/kline`;
    const data = {
      code: request.code,
      kline_type: request.klineType,
      kline_timestamp_end: request.endSec ?? 0,
      query_kline_num: request.count,
      adjust_type: 0,
    };
    let lastTrace = '';
    const parsed = await this.execute(
      {
        endpoint,
        method: 'GET',
        codes: [request.code],
        rules: this.marketRules('kline'),
        build: (trace) => ({ target: this.getTarget(endpoint, { trace, data }) }),
        parse: (response, trace) => {
          lastTrace = trace;
          // The documented answer is scanned straight from its text; anything else (errors, odd
          // shapes) takes the schema path, so its messages are the same whichever way it came.
          const scanned = response.status === 200 ? scanKlinePage(response.text) : undefined;
          return scanned ?? this.parseMarket(endpoint, [request.code], response, trace, klineDataSchema);
        },
        rows: (value) => value.kline_list.length,
      },
      signal,
    );
    // A scanned page's bars are made on first read (core/lazy-rows.ts); like any array they may be
    // sorted or changed in place, which only drops the page's lane.
    return { code: parsed.code, klineType: parsed.kline_type, bars: parsed.kline_list as KlineBar[], trace: lastTrace };
  }

  depthTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<DepthTick>> {
    return this.ticks('depth-tick', depthDataSchema, codes, signal);
  }

  tradeTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<TradeTick>> {
    return this.ticks('trade-tick', tradeDataSchema, codes, signal);
  }

  /**
   * Items left out of an answer are asked for again, like codes left out of a depth or trade
   * answer (R7): in requests of their own, up to MISSING_CODE_ROUNDS times, before they are
   * reported missing.
   */
  async batchKline(items: readonly BatchKlineItem[], signal?: AbortSignal): Promise<BatchKlineResult> {
    const result = await this.batchKlineRound(items, signal);
    for (let round = 0; round < MISSING_CODE_ROUNDS && result.missing.length > 0; round++) {
      let again: BatchKlineResult;
      try {
        again = await this.batchKlineRound(result.missing, signal);
      } catch (error) {
        // The first round's series are in hand (and charged): they go with the stop.
        if (!(error instanceof QuotaExhaustedError)) throw error;
        const more = error.partial as BatchKlineResult | undefined;
        throw error.withPartial({
          ...result,
          series: [...result.series, ...(more?.series ?? [])],
          invalid: [...new Set([...result.invalid, ...(more?.invalid ?? [])])],
          malformed: [...result.malformed, ...(more?.malformed ?? [])],
        });
      }
      result.series.push(...again.series);
      result.malformed.push(...again.malformed);
      result.invalid = [...new Set([...result.invalid, ...again.invalid])];
      result.missing = again.missing;
    }
    return result;
  }

  private async batchKlineRound(items: readonly BatchKlineItem[], signal?: AbortSignal): Promise<BatchKlineResult> {
    const seen = new Set<string>();
    const unique = items.filter((item) => {
      const key = `${item.code}\u0000${item.klineType}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const result: BatchKlineResult = { series: [], missing: [], invalid: [], malformed: [] };
    const jobs: Promise<void>[] = [];
    for (const [family, group] of groupBy(unique, (item) => this.familyOf(item.code))) {
      for (const chunk of splitByCapAndBudget(group, this.limits.batchKlineItemCap, null)) {
        jobs.push(
          this.bisect(chunk, (part) => this.batchKlineOnce(family, part, signal), (item) => item.code).then((out) => {
            for (const part of out.results) {
              result.series.push(...part.series);
              result.missing.push(...part.missing);
              result.malformed.push(...part.malformed);
            }
            result.invalid.push(...out.invalid);
          }),
        );
      }
    }
    await settleRequests(jobs, result, (r) => r.series.length > 0);
    result.invalid = [...new Set(result.invalid)];
    return result;
  }

  async halts(exchange: HaltExchange, options: HaltsOptions = {}, signal?: AbortSignal): Promise<HaltResponse> {
    const endpoint = `/api/suspension/${exchange}`;
    const params = new URLSearchParams({ token: this.#token });
    if (options.page !== undefined) params.set('page', String(options.page));
    if (options.size !== undefined) params.set('size', String(options.size));
    const target = `${this.basePath}${endpoint}?${params.toString()}`;
    return this.execute(
      {
        endpoint,
        method: 'GET',
        codes: [],
        rules: [
          ...this.combinedRules(),
          ...gapRule(`gap:${endpoint}`, this.limits.suspensionGapMs),
        ],
        build: () => ({ target, headers: { accept: 'application/json' } }),
        parse: (response) => this.parseHalts(endpoint, response),
        rows: (value) => value.data.length,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        retry: {
          attempts: Math.max(this.retry.attempts, SUSPENSION_ATTEMPTS),
          maxTotalMs: this.retry.maxTotalMs + Math.max(this.retry.attempts, SUSPENSION_ATTEMPTS) * this.limits.suspensionGapMs,
        },
      },
      signal,
    );
  }

  quotaStatus() {
    return this.quota.status();
  }

  requestCounts(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  unscopedRequestCounts(): Record<string, number> {
    return Object.fromEntries(this.unscoped);
  }

  requestOutcomes(): RequestOutcomes {
    return { ...this.outcomes };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Requests still waiting for a slot (a run that failed while its other streams were queued)
    // will never be sent: they fail now, and give back the quota they reserved before it is closed.
    this.limiter.failWaiting(new AbortedError('client closed'));
    // And those still taking their quota (a file lock) end on the closed check, giving it back.
    if (this.preparing > 0) await new Promise<void>((resolve) => this.preparedWaiters.push(resolve));
    // The failed waiters' refunds run in their own continuations: let them before the quota closes.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.saveRecentSends();
    await this.quota.close();
    await this.http.close();
  }

  // ---------------------------------------------------------------- windows between processes

  /** Before the first request: an earlier process's sends on the token count in our windows. */
  private async seedLimiter(): Promise<void> {
    if (!this.carried) return;
    try {
      const earlier = await this.carried.sends.load();
      this.carried.limiter.seed(new Map([...earlier].map(([key, w]) => [key, w.stamps])));
      this.carriedHolds = carriedHolds(earlier, this.clock.now());
    } catch (error) {
      this.logger.debug('could not read the earlier sends of this token', { event: 'recent-sends', error: String(error) });
    }
  }

  /**
   * A request held by an earlier run's request at the same gap (a suspension endpoint's minute): said
   * once at warn when the hold is long, or the run would sit at 0 requests for most of a minute with
   * nothing moving, as if hung. Only the first request at each such gap is looked at.
   */
  private sayCarriedHold(rules: readonly WindowRule[]): void {
    const holds = this.carriedHolds;
    if (holds === undefined || holds.size === 0) return;
    for (const rule of rules) {
      const hold = holds.get(rule.key);
      if (hold === undefined) continue;
      holds.delete(rule.key);
      const now = this.clock.now();
      if (hold.until - now < LONG_CARRIED_HOLD_MS) continue;
      const endpoint = rule.key.slice('gap:'.length);
      this.logger.warn(
        `an earlier run on this token asked ${endpoint} at ${new Date(hold.sentAt).toISOString()}: the plan's gap after it holds this request until ${new Date(hold.until).toISOString()} (${Math.ceil((hold.until - now) / 1000)} s), as the service would count it`,
        { event: 'recent-sends-hold', endpoint, until: new Date(hold.until).toISOString(), waitMs: hold.until - now },
      );
    }
  }

  private async saveRecentSends(): Promise<void> {
    // A client that sent nothing has nothing to add to what an earlier process left.
    if (!this.carried || this.seeded === undefined) return;
    try {
      await this.carried.sends.save(this.carried.limiter.recentStamps());
    } catch (error) {
      this.logger.debug('could not save the recent sends of this token', { event: 'recent-sends', file: this.carried.sends.file, error: String(error) });
    }
  }

  // ---------------------------------------------------------------- batching

  /**
   * R7: an answer may leave out requested codes (the service truncated the list, or had no quote
   * at that moment). They are asked for again, in requests of their own (together, without the
   * codes delivered), up to MISSING_CODE_ROUNDS times; what is still missing then is reported by name.
   */
  private async ticks<T extends { code?: string | undefined }>(
    kind: 'depth-tick' | 'trade-tick',
    schema: z.ZodType<{ tick_list: T[] }>,
    codes: readonly string[],
    signal?: AbortSignal,
  ): Promise<TicksResult<T>> {
    // Every code goes to its family's endpoint, in the first round and in every round after it.
    const endpoints = Object.fromEntries([...new Set(codes)].map((code) => [code, `${familyPrefix(this.familyOf(code))}/${kind}`]));
    let result: TicksResult<T>;
    try {
      result = await this.ticksRound(kind, schema, codes, signal);
    } catch (error) {
      if (error instanceof QuotaExhaustedError && error.partial !== undefined) throw error.withPartial({ ...(error.partial as TicksResult<T>), endpoints });
      throw error;
    }
    result.endpoints = endpoints;
    for (let round = 0; round < MISSING_CODE_ROUNDS && result.missing.length > 0; round++) {
      let again: TicksResult<T>;
      try {
        again = await this.ticksRound(kind, schema, result.missing, signal);
      } catch (error) {
        // The first round's ticks are in hand (and charged): they go with the stop.
        if (!(error instanceof QuotaExhaustedError)) throw error;
        const more = error.partial as TicksResult<T> | undefined;
        const answeredAtMs = new Map([...(result.answeredAtMs ?? []), ...(more?.answeredAtMs ?? [])]);
        throw error.withPartial({ ...result, ticks: [...result.ticks, ...(more?.ticks ?? [])], invalid: [...result.invalid, ...(more?.invalid ?? [])], answeredAtMs });
      }
      for (const [tick, at] of again.answeredAtMs ?? []) result.answeredAtMs?.set(tick, at);
      result.ticks.push(...again.ticks);
      result.invalid.push(...again.invalid);
      result.missing = again.missing;
    }
    return result;
  }

  private async ticksRound<T extends { code?: string | undefined }>(
    kind: 'depth-tick' | 'trade-tick',
    schema: z.ZodType<{ tick_list: T[] }>,
    codes: readonly string[],
    signal?: AbortSignal,
  ): Promise<TicksResult<T>> {
    const unique = [...new Set(codes)];
    const result: TicksResult<T> = { ticks: [], missing: [], invalid: [], answeredAtMs: new Map() };
    const jobs: Promise<void>[] = [];
    for (const [family, group] of groupBy(unique, (code) => this.familyOf(code))) {
      const endpoint = `${familyPrefix(family)}/${kind}`;
      // Measured with the longest trace this run can produce, so the real URL is never longer.
      const worstTrace = `${this.runId}-${'9'.repeat(16)}`;
      const measure = (chunk: readonly string[]) =>
        this.getTarget(endpoint, tickQuery(worstTrace, chunk)).length;
      for (const chunk of splitByCapAndBudget(group, this.limits.tickCodesCap, measure)) {
        jobs.push(
          this.bisect(chunk, (part) => this.ticksOnce(endpoint, kind, schema, part, signal), (code) => code).then(
            (out) => {
              for (const part of out.results) {
                for (const tick of part.ticks) result.answeredAtMs?.set(tick, part.answeredAtMs);
                result.ticks.push(...part.ticks);
                result.missing.push(...part.missing);
              }
              result.invalid.push(...out.invalid);
            },
          ),
        );
      }
    }
    await settleRequests(jobs, result, (r) => r.ticks.length > 0);
    return result;
  }

  private async ticksOnce<T extends { code?: string | undefined }>(
    endpoint: string,
    kind: 'depth-tick' | 'trade-tick',
    schema: z.ZodType<{ tick_list: T[] }>,
    codes: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ ticks: T[]; missing: string[]; answeredAtMs: number }> {
    let answeredAtMs = 0;
    const data = await this.execute(
      {
        endpoint,
        method: 'GET',
        codes,
        rules: this.marketRules(kind),
        build: (trace) => ({ target: this.getTarget(endpoint, tickQuery(trace, codes)) }),
        parse: (response, trace, at) => {
          answeredAtMs = at;
          return this.parseMarket(endpoint, codes, response, trace, schema);
        },
        rows: (value) => value.tick_list.length,
      },
      signal,
    );
    // A tick that is not an object is still delivered (and rejected downstream by name).
    const returned = new Set(data.tick_list.map((tick) => (tick as { code?: unknown } | null)?.code));
    return { ticks: data.tick_list, missing: codes.filter((code) => !returned.has(code)), answeredAtMs };
  }

  private async batchKlineOnce(
    family: Family,
    items: readonly BatchKlineItem[],
    signal?: AbortSignal,
  ): Promise<{ series: BatchKlineSeries[]; missing: BatchKlineItem[]; malformed: MalformedBatchSeries[] }> {
    const endpoint = `${familyPrefix(family)}/batch-kline`;
    const codes = items.map((item) => item.code);
    const dataList = items.map((item) => ({
      code: item.code,
      kline_type: item.klineType,
      kline_timestamp_end: item.endSec ?? 0,
      query_kline_num: item.count ?? 2,
      adjust_type: 0,
    }));
    const data = await this.execute(
      {
        endpoint,
        method: 'POST',
        codes,
        rules: [
          ...this.combinedRules(),
          ...gapRule('gap:batch-kline', this.limits.batchKlineGapMs),
        ],
        build: (trace) => ({
          target: `${this.basePath}${endpoint}?token=${encodeURIComponent(this.#token)}`,
          body: JSON.stringify({ trace, data: { data_list: dataList } }),
          headers: { 'content-type': 'application/json' },
        }),
        parse: (response, trace) => this.parseMarket(endpoint, codes, response, trace, batchKlineDataSchema),
        rows: (value) => value.kline_list.reduce<number>((n, series) => n + barsIn(series), 0),
      },
      signal,
    );
    const { series, malformed } = seriesOfList(endpoint, data.kline_list);
    // An item answered without a bar is not delivered: the latest two bars of a listed product
    // always exist, so an empty list is the service leaving the item out (asked again, then named).
    const returned = new Set(series.filter((s) => s.kline_data.length > 0).map((s) => `${s.code}\u0000${s.kline_type}`));
    return {
      series,
      missing: items.filter((item) => !returned.has(`${item.code}\u0000${item.klineType}`)),
      malformed,
    };
  }

  /**
   * W8: a batch answered `code invalid` (600) is split in halves until the bad code(s) stand
   * alone; every half is a full request (limiter, quota, retries) and valid codes are delivered.
   */
  private async bisect<I, R>(
    items: readonly I[],
    fetch: (part: readonly I[]) => Promise<R>,
    codeOf: (item: I) => string,
  ): Promise<{ results: R[]; invalid: string[] }> {
    try {
      return { results: [await fetch(items)], invalid: [] };
    } catch (error) {
      if (!(error instanceof ApiError) || error.ret !== 600) throw error;
      if (items.length <= 1) return { results: [], invalid: items.map(codeOf) };
      const middle = Math.ceil(items.length / 2);
      const halves = await Promise.all([
        this.bisect(items.slice(0, middle), fetch, codeOf),
        this.bisect(items.slice(middle), fetch, codeOf),
      ]);
      return {
        results: halves.flatMap((h) => h.results),
        invalid: halves.flatMap((h) => h.invalid),
      };
    }
  }

  // ---------------------------------------------------------------- request pipeline

  /** A lifted window ("unlimited", limit +Infinity) is dropped by the limiter: nothing is kept for it. */
  private combinedRules(): WindowRule[] {
    return [
      { key: 'combined:second', ...this.limits.perSecond },
      { key: 'combined:minute', ...this.limits.perMinute },
    ];
  }

  /** 8.2: each market-data operation alone has the combined per-second limit (never binding alone). */
  private marketRules(kind: string): WindowRule[] {
    return [...this.combinedRules(), { key: `op:${kind}`, ...this.limits.perSecond }];
  }

  private inFlightCap(): number {
    return isUnlimited(this.limits.perSecond.limit) ? UNLIMITED_IN_FLIGHT : this.limits.perSecond.limit;
  }

  private getTarget(endpoint: string, query: unknown): string {
    return getTarget(this.basePath, endpoint, this.#token, JSON.stringify(query));
  }

  private nextTrace(): string {
    this.traceCounter++;
    return `${this.runId}-${this.traceCounter}`;
  }

  /** Runs one logical request with retries; each attempt goes through slot, limiter and quota. */
  private async execute<T>(op: Operation<T>, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new AbortedError('client closed');
    const started = this.clock.now();
    let consumed = 0;
    let requeues = 0;
    /** Attempts made so far (the message of a request that failed after several says how many). */
    let attempts = 1;
    try {
      // The first attempt runs without p-retry, which costs about 1 KB of objects and a few
      // microseconds a call; a failure hands over to it as attempt 1, so every retry decision is
      // the same as it was. Aborted before or during the attempt: the abort, as p-retry would.
      if (signal?.aborted) throw abortReason(signal);
      let first: unknown;
      try {
        const value = await this.attempt(op, 1, signal);
        if (signal?.aborted) throw abortReason(signal);
        return value;
      } catch (error) {
        if (signal?.aborted) throw error;
        first = error;
      }
      const shouldRetry = async (error: unknown): Promise<boolean> => {
        if (!(error instanceof QuotelakeError) || !error.retryable) return false;
        if (isRateLimited(error)) return ++requeues <= this.retry.maxRateLimitRequeues;
        consumed++;
        // A dead service (no connection at all) gets no extra attempts: nothing waits for a slot.
        const unreached = error instanceof TransportError && !error.reachedServer;
        if (consumed >= (unreached ? this.retry.attempts : (op.retry?.attempts ?? this.retry.attempts))) return false;
        const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (consumed - 1));
        const asked = askedWait.get(error);
        const wait = Math.max(Math.floor(this.retry.random() * ceiling), asked ?? 0);
        const leftMs = (op.retry?.maxTotalMs ?? this.retry.maxTotalMs) - (this.clock.now() - started);
        if (wait > leftMs) {
          // Past the budget because the service asked for it: said so, with when to run again.
          if (asked !== undefined && wait === asked) throw new RetryAfterBeyondBudgetError(error, { askedMs: asked, leftMs, nowMs: this.clock.now() });
          return false;
        }
        this.logger.info(asked !== undefined ? 'retrying after the wait the service asked for (Retry-After)' : 'retrying request', {
          event: 'retry',
          endpoint: op.endpoint,
          retry: consumed,
          waitMs: wait,
          ...(asked !== undefined ? { retryAfterMs: asked } : {}),
          code: error.code,
          error: error.message,
        });
        await this.sleep(wait, signal);
        return true;
      };
      return await pRetry((attempt) => (attempt === 1 ? Promise.reject(first) : ((attempts = attempt), this.attempt(op, attempt, signal))), {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: 0,
        maxTimeout: 0,
        factor: 1,
        ...(signal ? { signal } : {}),
        shouldConsumeRetry: ({ error }) => !isRateLimited(error),
        shouldRetry: async ({ error }) => {
          const again = await shouldRetry(error);
          // A sent attempt going again is one request more than its stream planned (progress must
          // not call the stream done before it is sent).
          if (again && typeof error === 'object' && error !== null && sentAttempts.has(error)) requestScopeOf(signal)?.again?.(op.endpoint);
          return again;
        },
      });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      sayAttempts(error, attempts, this.clock.now() - started);
      throw error;
    }
  }

  private async attempt<T>(op: Operation<T>, attempt: number, signal?: AbortSignal): Promise<T> {
    // The quota is taken before waiting for a slot, so its file I/O never holds a window open.
    this.preparing++;
    const askedAt = this.clock.now();
    let queued: Promise<Permit>;
    try {
      await this.quota.precheck();
      await this.quota.take();
      await (this.seeded ??= this.seedLimiter());
      if (this.closed) {
        // Closed while its quota was taken: it will not be sent.
        this.quota.refund();
        throw new AbortedError('client closed');
      }
      this.sayCarriedHold(op.rules);
      queued = this.limiter.acquire(op.rules, signal);
    } catch (error) {
      this.admission(op.endpoint, askedAt, false, signal);
      throw error;
    } finally {
      this.preparing--;
      if (this.preparing === 0) for (const wake of this.preparedWaiters.splice(0)) wake();
      this.wakeIdleWaiters();
    }
    let permit: Permit;
    try {
      permit = await queued;
    } catch (error) {
      this.quota.refund();
      this.admission(op.endpoint, askedAt, false, signal);
      throw error;
    }
    // The service said the day is used up while this one waited for its slot: it must not be sent.
    const closedDay = this.quota.closedByService();
    this.admission(op.endpoint, askedAt, !closedDay, signal);
    if (closedDay) {
      permit.cancel();
      throw closedDay;
    }
    // Whether undici handed the request to a connected socket, and whether an answer came back:
    // together they say whether the service can have counted it (RequestOutcomes).
    let sent = false;
    let answered = false;
    let answeredAt = 0;
    try {
      const trace = this.nextTrace();
      const request = op.build(trace);
      const sentAt = this.clock.now();
      const report = (outcome: RequestInfo['outcome'], extra: { status?: number; ret?: number; rows?: number } = {}) =>
        this.report({
          endpoint: op.endpoint,
          method: op.method,
          trace,
          attempt,
          codes: op.codes.length,
          ...(op.codes.length === 1 ? { code: op.codes[0] } : {}),
          outcome,
          sentAt,
          durationMs: this.clock.now() - sentAt,
          ...extra,
        });
      let response: HttpResponse;
      try {
        response = await this.http.send({
          method: op.method,
          target: request.target,
          endpoint: op.endpoint,
          ...(request.body !== undefined ? { body: request.body } : {}),
          ...(request.headers ? { headers: request.headers } : {}),
          ...(signal ? { signal } : {}),
          ...(op.timeoutMs !== undefined ? { timeouts: { headersMs: op.timeoutMs, bodyMs: op.timeoutMs } } : {}),
          onSent: () => {
            sent = true;
            this.counts.set(op.endpoint, (this.counts.get(op.endpoint) ?? 0) + 1);
            // The stream this request serves learns of it now, from the scope its caller's signal carries (progress per stream).
            const scope = requestScopeOf(signal);
            if (scope !== undefined) scope.sent(op.endpoint);
            else this.unscoped.set(op.endpoint, (this.unscoped.get(op.endpoint) ?? 0) + 1);
          },
          // The server stamped the request before answering: its windows can count from here.
          onHeaders: () => {
            answered = true;
            answeredAt = this.clock.now();
            permit.release();
          },
        });
      } catch (error) {
        report(signal?.aborted ? 'aborted' : 'transport-error');
        if (!sent || (error instanceof TransportError && !error.reachedServer)) {
          // Nothing left this process (no connection, or aborted before a socket took it): no
          // window and no quota is charged.
          this.outcomes.unsent++;
          permit.cancel();
          this.quota.refund();
        } else if (!answered) {
          // Sent, answer lost: the service may have counted it, so it stays charged, and is said so.
          this.outcomes.unknown++;
          this.quota.noteUnknown();
        } else {
          this.outcomes.answered++;
        }
        throw error;
      }
      this.outcomes.answered++;
      // Parsed after the other answers already in: their headers release their slots first (a
      // busy parse must not delay a stamp the shared windows wait on).
      await yieldToLoop();
      try {
        const value = op.parse(response, trace, answered ? answeredAt : this.clock.now());
        report('ok', { status: response.status, ret: 200, ...(op.rows && logsAt(this.logger, 'debug') ? { rows: op.rows(value) } : {}) });
        return value;
      } catch (error) {
        // A daily-limit 429 is thrown as the quota error, the service's answer (with its ret) as its cause.
        const answer = error instanceof QuotaExhaustedError ? error.cause : error;
        const ret = answer instanceof ApiError ? answer.ret : undefined;
        const extra = { status: response.status, ...(ret !== undefined ? { ret } : {}) };
        const asked = retryAfterMs(response.retryAfter, this.clock.now());
        if (asked !== undefined && error instanceof Error) askedWait.set(error, asked);
        if (error instanceof QuotaExhaustedError) {
          report('quota-exhausted', extra);
          // Answered, but a refusal the service counts toward nothing: told apart from what it served.
          this.outcomes.dailyLimited++;
          // Stop admitting at once (the quota closes the day before its file is synced): whatever
          // waits for a slot fails now, unsent.
          const exhausted = this.quota.markExhausted(error.cause);
          this.limiter.failWaiting(this.quota.closedByService());
          throw await exhausted;
        }
        if (isRateLimited(error)) {
          // The server's windows disagree with ours: it counted nothing, so give the quota back,
          // and hold every admission for a window before trying again.
          report('rate-limited', extra);
          this.outcomes.rateLimited++;
          this.quota.refund();
          const holdMs = Math.max(this.limits.perSecond.windowMs, asked ?? 0);
          this.logger.info('the service answered 429 (rate limit): holding every request, then sending it again', {
            event: 'rate-limited',
            endpoint: op.endpoint,
            trace,
            holdMs,
            ...(asked !== undefined ? { retryAfterMs: asked } : {}),
          });
          this.limiter.pauseUntil(this.clock.now() + holdMs);
        } else {
          report(error instanceof TransportError ? 'transport-error' : 'api-error', extra);
        }
        throw error;
      }
    } catch (error) {
      if (sent && typeof error === 'object' && error !== null) sentAttempts.add(error);
      throw error;
    } finally {
      permit.release();
      this.wakeIdleWaiters();
    }
  }

  /** Tells onAdmission how long the quota and limiter held an attempt (a stop is no refusal: not told). */
  private admission(endpoint: string, askedAt: number, admitted: boolean, signal: AbortSignal | undefined): void {
    // A stop is no refusal, and neither is a close: only the daily quota refuses.
    if (!this.onAdmission || (!admitted && (signal?.aborted || this.closed))) return;
    try {
      this.onAdmission({ endpoint, waitMs: this.clock.now() - askedAt, admitted });
    } catch {
      // A metrics callback must not break a request.
    }
  }

  private report(info: RequestInfo & { rows?: number; code?: string | undefined }): void {
    if (logsAt(this.logger, 'debug')) {
      // Per request, so only built when debug lines are written.
      this.logger.debug('request', {
        event: 'request',
        endpoint: info.endpoint,
        method: info.method,
        trace: info.trace,
        attempt: info.attempt,
        codes: info.codes,
        ...(info.code !== undefined ? { code: info.code } : {}),
        outcome: info.outcome,
        ...(info.status !== undefined ? { status: info.status } : {}),
        ...(info.ret !== undefined ? { ret: info.ret } : {}),
        latencyMs: info.durationMs,
        ...(info.rows !== undefined ? { rows: info.rows } : {}),
      });
    }
    if (!this.onRequest) return;
    try {
      this.onRequest(info);
    } catch {
      // A progress callback must not break a request.
    }
  }

  // ---------------------------------------------------------------- parsing

  private parseMarket<T>(
    endpoint: string,
    codes: readonly string[],
    response: HttpResponse,
    trace: string,
    schema: z.ZodType<T>,
  ): T {
    if (response.status >= 500) {
      throw new TransportError(endpoint, `HTTP ${response.status} (server fault, trace ${trace})`);
    }
    if (response.status !== 200) {
      throw new ApiError({
        httpStatus: response.status,
        serviceMessage: this.clean(response.text.slice(0, 200)),
        trace,
        endpoint,
        codes,
        retryable: false,
      });
    }
    const body = this.parseJson(endpoint, response.text, trace);
    const envelope = marketEnvelopeSchema.safeParse(body);
    if (!envelope.success) {
      throw new ResponseShapeError(endpoint, `${envelope.error.issues[0]?.message ?? 'invalid'} (trace ${trace})`);
    }
    const { ret, msg } = envelope.data;
    if (ret !== 200) {
      if (ret === 429 && isDailyLimit(msg)) {
        throw new QuotaExhaustedError({
          resetAt: this.quota.dayOf().resetAt,
          used: this.limits.perDay,
          limit: this.limits.perDay,
          cause: this.apiError(endpoint, ret, msg, envelope.data.trace || trace, codes, false),
        });
      }
      // A 429 may come without the trace echoed (R3): ours names the request.
      throw this.apiError(endpoint, ret, msg, envelope.data.trace || trace, codes, ret === 429);
    }
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) {
      const issue = data.error.issues[0];
      throw new ResponseShapeError(
        endpoint,
        `data.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'} (trace ${trace})`,
      );
    }
    return data.data;
  }

  private parseHalts(endpoint: string, response: HttpResponse): HaltResponse {
    if (response.status === 200) {
      const body = this.parseJson(endpoint, response.text, undefined);
      const parsed = haltResponseSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ResponseShapeError(endpoint, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
      }
      return parsed.data;
    }
    let failure: z.infer<typeof haltErrorSchema> | undefined;
    try {
      const candidate = haltErrorSchema.safeParse(JSON.parse(response.text));
      if (candidate.success) failure = candidate.data;
    } catch {
      // not the documented error body: a server or proxy fault
    }
    if (!failure || response.status < 500 || response.status > 599) {
      if (response.status >= 500) throw new TransportError(endpoint, `HTTP ${response.status} (server fault)`);
      throw new ApiError({
        httpStatus: response.status,
        serviceMessage: this.clean(response.text.slice(0, 200)),
        endpoint,
        retryable: false,
      });
    }
    const message = this.clean(failure.error);
    if (isDailyLimit(message)) {
      throw new QuotaExhaustedError({
        resetAt: this.quota.dayOf().resetAt,
        used: this.limits.perDay,
        limit: this.limits.perDay,
        cause: new ApiError({ httpStatus: response.status, serviceMessage: message, endpoint, retryable: false }),
      });
    }
    // Every suspension error is HTTP 500 (S5): the text tells them apart. A "rate limit" has the 429
    // semantics (re-queued, never a failure); "temporarily unavailable", "busy" and the like are
    // retried with backoff inside the 1-per-minute window; anything else (a bad token) fails at once.
    const rateLimited = isRateLimitText(message);
    throw new ApiError({
      ...(rateLimited ? { ret: 429 } : {}),
      // "token invalid" and the like: the same code as ret 401, so the user is told to check the token.
      ...(!rateLimited && /token/i.test(message) ? { code: 'QL_API_TOKEN_INVALID' } : {}),
      httpStatus: response.status,
      serviceMessage: message,
      endpoint,
      retryable: rateLimited || isPassingText(message),
    });
  }

  private parseJson(endpoint: string, text: string, trace: string | undefined): unknown {
    try {
      return parseJsonExact(text);
    } catch (error) {
      const where = trace ? `, trace ${trace}` : '';
      throw new TransportError(
        endpoint,
        `truncated or unparsable body (${text.length} chars${where})`,
        new Error(this.clean(error instanceof Error ? error.message : String(error))),
      );
    }
  }

  private apiError(endpoint: string, ret: number, msg: string, trace: string, items: readonly string[], retryable: boolean) {
    // Once per code: a /batch-kline request carries a code once per interval.
    const codes = [...new Set(items)];
    const market = this.limits.market;
    if (ret === 604 && market !== undefined) {
      // The service refuses the whole request for one code outside the plan: name only those.
      const outside = codesOutsideMarket(codes, market);
      const named = outside.length > 0 ? outside : codes;
      return new ApiError({ ret, serviceMessage: this.clean(msg), trace, endpoint, codes: named, retryable, hint: marketPlanHint(this.plan, market) });
    }
    return new ApiError({ ret, serviceMessage: this.clean(msg), trace, endpoint, codes, retryable });
  }

  private clean(text: string): string {
    return redactText(text, this.#token);
  }

  redact(text: string): string {
    return this.clean(text);
  }

  // ---------------------------------------------------------------- settling

  /** Requests on their way to the limiter's queue, or admitted and not yet answered. */
  private get active(): number {
    return this.preparing + this.limiter.inFlight;
  }

  private wakeIdleWaiters(): void {
    if (this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  /**
   * The limiter's sleep under a virtual clock: first let admitted requests reach the server and
   * be answered (bounded in real time), then move the clock to the original target.
   */
  private async settledSleep(ms: number, signal?: AbortSignal): Promise<void> {
    const target = this.clock.now() + ms;
    if (this.active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SETTLE_CAP_MS);
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (signal?.aborted) throw abortReason(signal);
    await this.sleep(Math.max(0, target - this.clock.now()), signal);
  }
}

function tickQuery(trace: string, codes: readonly string[]) {
  return { trace, data: { symbol_list: codes.map((code) => ({ code })) } };
}
