/**
 * A service client over several tokens, each with its own plan, sliding windows and daily quota.
 *
 * Every token is a full client of its own (createClient): its limiter and its quota store are keyed
 * per token (the quota file by the token's hash), so a shared limiter keyed the same way slots in
 * per member without the pool changing. The pool only decides which token serves a call:
 *
 * - Work is placed by stream, not by request: a stream is the signal its calls carry (a source gives
 *   every stream its own, see core/request-scope.ts), and a stream sticks to the token it was given.
 *   Round-robin per request would spread one series over every token's windows and make a 429 on one
 *   token stall pages of a walk that another token is serving.
 * - A new stream goes to the token with budget left (of those covering its call, below) that carries
 *   the least work for its rate (calls in flight, and streams between two calls): a premium token
 *   gets half the work of a professional one, and a walk asking pages ahead weighs more than a
 *   one-page series.
 * - A call goes only to a token whose plan covers every code it carries (an All-* style plan with a
 *   `market` refuses the others with 604; a plan without one covers everything): when first placed,
 *   and when it moves. When no token of the pool covers them all, any token may take it, and the
 *   service's 604 names the codes, with the pool's hint (as `quotelake plan` says beforehand).
 * - A stream moves only when its token is exhausted (today's quota used up: the call is asked again
 *   on another token, so nothing is lost), limited (the service answered 429 and the token is in
 *   its hold, or a call gave up after its 429 re-queues), or refuses the codes of its next call:
 *   then it moves at its next call, to a token that covers them.
 * - When every token that covers a call's codes has used up its day, the call fails with
 *   QuotaExhaustedError (the earliest reset among them), so a source stops as it does on one token;
 *   it never falls onto a token that would refuse the codes.
 */
import { ApiError, ConfigError, QuotaExhaustedError } from '../core/errors.js';
import { redactSecrets, redactToken } from '../core/redact.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/component.js';
import { silentLogger } from '../core/log-helpers.js';
import { createClient } from './client.js';
import { checkTokenPoolOptionKeys } from './client-option-keys.js';
import { planCoversCodes, planCoversExchange, poolRefusalHint } from './plan-market.js';
import { poolQuotaStop, type PoolQuotaStop } from './pool-quota-stop.js';
import { tokenProblem, usableToken } from './token-problem.js';
import { isUnlimited, planLimits, type PlanLimits, type WindowLimit } from './plans.js';
import { tokenHash16, type QuotaStatus } from './quota-store.js';
import type { TokenUsage, TokenUsageSource } from './token-usage.js';
import type {
  BatchKlineItem,
  BatchKlineResult,
  ClientOptions,
  DepthTick,
  HaltExchange,
  HaltResponse,
  HaltsOptions,
  KlineRequest,
  KlineResult,
  RequestInfo,
  RequestOutcomes,
  ServiceClient,
  TicksResult,
  TradeTick,
} from './types.js';

/** One token of a pool and the plan it is paced by (a built-in plan or a custom plan of `plans`). */
export interface PoolToken {
  readonly token: string;
  readonly plan: string;
}

export interface TokenPoolOptions extends Omit<ClientOptions, 'token' | 'plan' | 'onRequest' | 'runId'> {
  readonly tokens: readonly PoolToken[];
  /** Shared by every member's traces. */
  readonly runId?: string;
  /** Every HTTP attempt of every member, with the member's index in `tokens`. */
  readonly onRequest?: (info: RequestInfo, tokenIndex: number) => void;
  /** Builds a member client; default createClient (tests may wrap it). */
  readonly createMember?: (options: ClientOptions) => ServiceClient;
}

interface Member {
  readonly index: number;
  readonly label: string;
  readonly hash: string;
  readonly client: ServiceClient;
  readonly limits: PlanLimits;
  /** Requests per second the plan sustains (the tighter of its second and minute windows). */
  readonly rate: number;
  /** Calls in flight per stream key. */
  readonly live: Map<object, number>;
  /** When each stream's last call on this member ended (clock ms): a stream between two calls still counts. */
  readonly lastSeen: Map<object, number>;
  rows: number;
  rateLimited: number;
  streams: number;
  takenOver: number;
  handedOff: number;
  /** Clock ms until which the member is in a 429 hold (no new or moving stream is given to it). */
  heldUntil: number;
  /** Today's quota used up (until its resetAt: a process running past midnight takes the token up again). */
  exhausted: QuotaExhaustedError | undefined;
}

/** The key of calls that carry no signal: they form one stream of their own. */
const UNSCOPED = {};

/**
 * A stream counts on its token while it has a call in flight or had one this recently (clock ms):
 * a stream writing its last page is not gone, and one that ended lets its token take the next.
 */
const IDLE_MS = 1000;

/** How long a member counts as limited after a 429 when its plan has no per-second window to say. */
const DEFAULT_HOLD_MS = 1000;

function sustainedRate(limits: PlanLimits): number {
  const perSecond = isUnlimited(limits.perSecond.limit) ? Number.POSITIVE_INFINITY : (limits.perSecond.limit * 1000) / limits.perSecond.windowMs;
  const perMinute = isUnlimited(limits.perMinute.limit) ? Number.POSITIVE_INFINITY : (limits.perMinute.limit * 1000) / limits.perMinute.windowMs;
  const rate = Math.min(perSecond, perMinute);
  // Two unlimited members share streams evenly.
  return Number.isFinite(rate) ? rate : 1e9;
}

/**
 * The limits of the token an idle pool gives a new stream: the one with the least work for its
 * rate (#pick), which with no work anywhere is the fastest, the first of equals. A source whose
 * requests are all one stream (a snapshot or kline-latest poller) runs on that token alone, with
 * its caps and its windows.
 */
export function streamTokenLimits(all: readonly PlanLimits[]): PlanLimits {
  let best = all[0]!;
  for (const l of all) if (sustainedRate(l) > sustainedRate(best)) best = l;
  return best;
}

/**
 * The tokens' short windows as one, over the longest of them: a window admits a whole number of
 * requests (free's 1 per 10 s and basic's 1 per second are 11 per 10 s, not 1.1 per second, which
 * no schedule can count).
 */
function combinedWindow(windows: readonly WindowLimit[]): WindowLimit {
  const windowMs = Math.max(...windows.map((w) => w.windowMs));
  return { limit: windows.reduce((a, w) => a + Math.floor((w.limit * windowMs) / w.windowMs), 0), windowMs };
}

/**
 * The limits a pool plans with (a source's request sizes, the planner's time estimate): caps of the
 * most restricted token (a request built for it fits every token), rates and daily totals of the
 * whole pool (the estimate assumes the streams spread over the tokens, as they do when there are
 * enough of them).
 */
export function poolPlanLimits(all: readonly PlanLimits[]): PlanLimits {
  if (all.length === 1) return all[0]!;
  const sum = (f: (l: PlanLimits) => number) => all.reduce((a, l) => a + f(l), 0);
  const caps = all.map((l) => l.tickCodesCap).filter((c): c is number => c !== null);
  return Object.freeze({
    name: `pool of ${all.length}`,
    perSecond: Object.freeze(combinedWindow(all.map((l) => l.perSecond))),
    perMinute: Object.freeze({ limit: sum((l) => l.perMinute.limit), windowMs: 60_000 }),
    perDay: sum((l) => l.perDay),
    batchKlineGapMs: Math.max(...all.map((l) => l.batchKlineGapMs)),
    suspensionGapMs: Math.max(...all.map((l) => l.suspensionGapMs)),
    tickCodesCap: caps.length > 0 ? Math.min(...caps) : null,
    batchKlineItemCap: Math.min(...all.map((l) => l.batchKlineItemCap)),
  });
}

export function createTokenPool(options: TokenPoolOptions): TokenPool {
  return new TokenPool(options);
}

export class TokenPool implements ServiceClient, TokenUsageSource {
  readonly plan: string;
  readonly limits: PlanLimits;
  readonly runId: string;
  readonly #members: readonly Member[];
  readonly #secrets: readonly string[];
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #assigned = new WeakMap<object, Member>();

  constructor(options: TokenPoolOptions) {
    checkTokenPoolOptionKeys(options);
    const { tokens: given, createMember, onRequest, ...shared } = options;
    if (!Array.isArray(given) || given.length === 0) {
      const what = given === undefined ? 'is missing' : Array.isArray(given) ? 'is an empty list' : 'is not a list';
      throw new ConfigError(`createTokenPool: tokens ${what}`, {}, undefined, 'give at least one token: createTokenPool({ tokens: [{ token, plan }, …] })');
    }
    const seen = new Map<string, number>();
    const tokens = given.map((t, i) => {
      // Each entry said by its place: a plain string or a missing plan was a bare TypeError.
      if (typeof t !== 'object' || t === null || Array.isArray(t)) {
        throw new ConfigError(`createTokenPool: tokens[${i}] ${t === null ? 'is null' : Array.isArray(t) ? 'is a list' : `is a ${typeof t}`}, not an object { token, plan }`, {}, undefined, 'give each token with its plan: createTokenPool({ tokens: [{ token, plan }, …] })');
      }
      if (typeof t.plan !== 'string' || t.plan.trim() === '') {
        const problem = t.plan === undefined ? 'is missing' : typeof t.plan !== 'string' ? `is a ${t.plan === null ? 'null' : typeof t.plan}, not a string` : 'is empty';
        throw new ConfigError(`createTokenPool: tokens[${i}].plan ${problem}`, {}, undefined, "give each token its plan's name (professional, all-us, … or a custom plan of plans): createTokenPool({ tokens: [{ token, plan }, …] })");
      }
      const token = usableToken(t.token);
      // Said by its kind only: Node's own error for a token of digits given as a number quoted it.
      if (token === undefined) {
        const hint = typeof t.token === 'string' ? 'give each token of the pool: createTokenPool({ tokens: [{ token, plan }, …] })' : 'give each token as text: createTokenPool({ tokens: [{ token, plan }, …] })';
        throw new ConfigError(`createTokenPool: tokens[${i}].token ${tokenProblem(t.token)}`, {}, undefined, hint);
      }
      // Twice the same token would be two limiters for one plan: the service would answer 429.
      const first = seen.get(token);
      if (first !== undefined) {
        throw new ConfigError(`createTokenPool: tokens[${i}].token: a token is listed twice in the pool (${redactToken(token)}), as tokens[${first}] and tokens[${i}]`, {}, undefined, 'give each token once: one token is one plan, and two limiters for it would exceed it');
      }
      seen.set(token, i);
      return { ...t, token };
    });
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.runId = options.runId ?? `ql${Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0')}`;
    this.#secrets = tokens.map((t) => t.token);
    const make = createMember ?? createClient;
    this.#members = tokens.map((t, index) => {
      const limits = planLimits(t.plan, options.plans);
      const member: Member = {
        index,
        label: redactToken(t.token),
        hash: tokenHash16(t.token),
        limits,
        rate: sustainedRate(limits),
        live: new Map(),
        lastSeen: new Map(),
        rows: 0,
        rateLimited: 0,
        streams: 0,
        takenOver: 0,
        handedOff: 0,
        heldUntil: Number.NEGATIVE_INFINITY,
        exhausted: undefined,
        client: undefined as unknown as ServiceClient,
      };
      (member as { client: ServiceClient }).client = make({
        ...shared,
        token: t.token,
        plan: t.plan,
        runId: `${this.runId}t${index}`,
        onRequest: (info) => {
          if (info.outcome === 'rate-limited') {
            member.rateLimited++;
            const hold = isUnlimited(limits.perSecond.limit) ? DEFAULT_HOLD_MS : limits.perSecond.windowMs;
            member.heldUntil = Math.max(member.heldUntil, this.#clock.now() + hold);
          }
          onRequest?.(info, index);
        },
      });
      return member;
    });
    this.limits = poolPlanLimits(this.#members.map((m) => m.limits));
    this.plan = this.limits.name;
  }

  // ---------------------------------------------------------------- the ServiceClient calls

  kline(request: KlineRequest, signal?: AbortSignal): Promise<KlineResult> {
    return this.#route(signal, (p) => planCoversCodes(p, [request.code]), (c) => c.kline(request, signal), (r) => r.bars.length);
  }

  depthTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<DepthTick>> {
    return this.#route(signal, (p) => planCoversCodes(p, codes), (c) => c.depthTicks(codes, signal), (r) => r.ticks.length);
  }

  tradeTicks(codes: readonly string[], signal?: AbortSignal): Promise<TicksResult<TradeTick>> {
    return this.#route(signal, (p) => planCoversCodes(p, codes), (c) => c.tradeTicks(codes, signal), (r) => r.ticks.length);
  }

  batchKline(items: readonly BatchKlineItem[], signal?: AbortSignal): Promise<BatchKlineResult> {
    const codes = items.map((i) => i.code);
    return this.#route(signal, (p) => planCoversCodes(p, codes), (c) => c.batchKline(items, signal), (r) => r.series.reduce((a, s) => a + s.kline_data.length, 0));
  }

  halts(exchange: HaltExchange, options?: HaltsOptions, signal?: AbortSignal): Promise<HaltResponse> {
    return this.#route(signal, (p) => planCoversExchange(p, exchange), (c) => c.halts(exchange, options, signal), (r) => r.data.length);
  }

  /** The pool's day: the sum over its tokens, reset at the earliest of their resets. */
  async quotaStatus(): Promise<QuotaStatus> {
    const all = await Promise.all(this.#members.map((m) => m.client.quotaStatus()));
    const first = all[0]!;
    const earliest = all.reduce((a, s) => (s.resetAt < a.resetAt ? s : a), first);
    return {
      used: all.reduce((a, s) => a + s.used, 0),
      limit: all.reduce((a, s) => a + s.limit, 0),
      remaining: all.reduce((a, s) => a + s.remaining, 0),
      unknown: all.reduce((a, s) => a + s.unknown, 0),
      resetAt: earliest.resetAt,
      day: earliest.day,
      timeZone: first.timeZone,
    };
  }

  requestCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const m of this.#members) for (const [k, v] of Object.entries(m.client.requestCounts())) out[k] = (out[k] ?? 0) + v;
    return out;
  }

  unscopedRequestCounts(): Record<string, number> | undefined {
    const out: Record<string, number> = {};
    for (const m of this.#members) {
      // One member that does not tell them apart: the pool cannot either.
      const counts = m.client.unscopedRequestCounts?.();
      if (counts === undefined) return undefined;
      for (const [k, v] of Object.entries(counts)) out[k] = (out[k] ?? 0) + v;
    }
    return out;
  }

  requestOutcomes(): RequestOutcomes {
    const out: Required<RequestOutcomes> = { answered: 0, unknown: 0, unsent: 0, rateLimited: 0, dailyLimited: 0 };
    for (const m of this.#members) {
      const o = m.client.requestOutcomes?.();
      if (!o) continue;
      out.answered += o.answered;
      out.unknown += o.unknown;
      out.unsent += o.unsent;
      out.rateLimited += o.rateLimited;
      out.dailyLimited += o.dailyLimited ?? 0;
    }
    return out;
  }

  /** Per-token counters (see TokenUsage), in the pool's order. */
  tokenUsage(): TokenUsage[] {
    return this.#members.map((m) => {
      const requests = m.client.requestCounts();
      return {
        index: m.index,
        token: m.label,
        tokenHash: m.hash,
        plan: m.limits.name,
        requests,
        requestsTotal: Object.values(requests).reduce((a, b) => a + b, 0),
        rows: m.rows,
        rateLimited: m.rateLimited,
        streams: m.streams,
        streamsTakenOver: m.takenOver,
        streamsHandedOff: m.handedOff,
        exhausted: this.#usedUp(m),
      };
    });
  }

  /**
   * The limits of the token a new stream of `codes` runs on: the one #pick gives it now, among the
   * tokens covering every code when some do, passing over tokens whose day their quota says is used
   * up (the stream's first call would find that and move on). On an idle pool that is the fastest
   * with quota left, as `quotelake plan` counts a poller.
   */
  async streamLimits(codes: readonly string[] = []): Promise<PlanLimits> {
    // A quota that cannot be read (a shared count out of reach) leaves its token a candidate: its first call decides.
    const quotas = await Promise.all(this.#members.map((m) => m.client.quotaStatus().catch(() => undefined)));
    const covering = this.#members.filter((m) => planCoversCodes(m.limits, codes));
    const among = covering.length > 0 ? covering : this.#members;
    const open = among.filter((m) => (quotas[m.index]?.remaining ?? 1) > 0);
    return (this.#pick(undefined, open) ?? this.#pick(undefined, among) ?? this.#fallback(among)).limits;
  }

  /** Today's quota of each token, in the pool's order. */
  tokenQuotas(): Promise<QuotaStatus[]> {
    return Promise.all(this.#members.map((m) => m.client.quotaStatus()));
  }

  /**
   * Why a run over `codes` stopped at the daily quota, when the tokens used up are the only cover
   * of some codes while others still have quota (pool-quota-stop.ts); undefined when the whole pool
   * is spent. A token counts as used up when a call found it so or its quota says none is left.
   */
  async quotaStop(codes: readonly string[]): Promise<PoolQuotaStop | undefined> {
    // A quota that cannot be read (a shared count out of reach) counts as having some left: its calls decide.
    const quotas = await Promise.all(this.#members.map((m) => m.client.quotaStatus().catch(() => undefined)));
    return poolQuotaStop(
      codes,
      this.#members.map((m, i) => {
        const q = quotas[i];
        const usedUp = this.#usedUp(m) || (q !== undefined && q.remaining <= 0);
        return {
          tokenIndex: m.index + 1,
          token: m.label,
          tokenHash: m.hash,
          plan: m.limits.name,
          limits: m.limits,
          usedUp,
          left: q?.remaining ?? 0,
          resetAt: m.exhausted?.resetAt ?? q?.resetAt ?? new Date(this.#clock.now()),
        };
      }),
    );
  }

  /** Text with every token of the pool redacted (for messages built outside the members). */
  redact(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  async close(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.client.close()));
  }

  // ---------------------------------------------------------------- placement

  /**
   * Runs `call` on the stream's token, among those whose plan `covers` the call (all of them when
   * none does); moves the stream (and asks again) when that token's day is used up or it gave up on 429s.
   */
  async #route<T>(signal: AbortSignal | undefined, covers: (plan: PlanLimits) => boolean, call: (client: ServiceClient) => Promise<T>, rows: (value: T) => number): Promise<T> {
    const key: object = signal ?? UNSCOPED;
    const covering = this.#members.filter((m) => covers(m.limits));
    const among = covering.length > 0 ? covering : this.#members;
    let member = this.#memberFor(key, among);
    // Each move follows a token found used up or limited; more moves than that cannot help.
    for (let moves = 0; ; moves++) {
      // The member this attempt runs on counts the stream as live until the attempt ends.
      const holder = member;
      holder.live.set(key, (holder.live.get(key) ?? 0) + 1);
      try {
        const value = await call(holder.client);
        holder.rows += rows(value);
        return value;
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof QuotaExhaustedError) {
          if (!this.#usedUp(holder)) {
            holder.exhausted = error;
            // News once per token and day: from here its streams run on the others.
            this.#logger.info('a token of the pool has used up its day: its streams move to the others', {
              event: 'token-exhausted',
              token: holder.label,
              tokenIndex: holder.index + 1,
              resetAt: error.resetAt.toISOString(),
            });
          }
        } else if (error instanceof ApiError && error.ret === 429) {
          // Gave up after its re-queues: this token is limited beyond its hold.
          holder.heldUntil = Math.max(holder.heldUntil, this.#clock.now() + holder.limits.perMinute.windowMs);
        } else {
          throw this.#poolRefusal(covering.length > 0, this.#namingToken(holder, error));
        }
        if (moves >= 2 * this.#members.length) throw this.#lastError(error, among);
        // Another call of the same stream may have moved it already (pages asked for ahead fail together).
        const moved = this.#assigned.get(key);
        if (moved !== undefined && moved !== holder && among.includes(moved) && this.#usable(moved)) {
          member = moved;
          continue;
        }
        const next = this.#pick(holder, among);
        if (next === undefined) throw this.#lastError(error, among);
        this.#move(key, holder, next);
        member = next;
      } finally {
        holder.lastSeen.set(key, this.#clock.now());
        const n = (holder.live.get(key) ?? 1) - 1;
        if (n <= 0) holder.live.delete(key);
        else holder.live.set(key, n);
      }
    }
  }

  /**
   * The stream's token among `among` (those covering the call): a stream seen for the first time,
   * or whose token is used up, held or refuses the call's codes, gets one now.
   */
  #memberFor(key: object, among: readonly Member[]): Member {
    const current = this.#assigned.get(key);
    const covered = current !== undefined && among.includes(current);
    if (covered && this.#usable(current)) return current;
    const next = this.#pick(current, among);
    if (current === undefined) {
      const chosen = next ?? this.#fallback(among);
      this.#assigned.set(key, chosen);
      chosen.streams++;
      return chosen;
    }
    if (next === undefined) {
      // Limited or used up, and no other covering token can take the stream: stay (the member waits or fails).
      if (covered) return current;
      // Its token refuses these codes and every one that covers them is held or used up: wait on (or fail at) one of those.
      const waitOn = this.#fallback(among);
      this.#move(key, current, waitOn);
      return waitOn;
    }
    this.#move(key, current, next);
    return next;
  }

  #usable(m: Member): boolean {
    return !this.#usedUp(m) && m.heldUntil <= this.#clock.now();
  }

  #usedUp(m: Member): boolean {
    if (m.exhausted !== undefined && this.#clock.now() >= m.exhausted.resetAt.getTime()) m.exhausted = undefined;
    return m.exhausted !== undefined;
  }

  #move(key: object, from: Member, to: Member): void {
    this.#logger.debug('stream moved to another token of the pool', {
      event: 'stream-moved',
      from: from.index + 1,
      to: to.index + 1,
      reason: this.#usedUp(from) ? 'exhausted' : this.#usable(from) ? 'market' : 'limited',
    });
    this.#assigned.set(key, to);
    from.handedOff++;
    to.takenOver++;
  }

  /** The usable member (not used up, not held) with the least work for its rate, of `among`; never `except`. */
  #pick(except?: Member, among: readonly Member[] = this.#members): Member | undefined {
    let best: Member | undefined;
    let bestLoad = Number.POSITIVE_INFINITY;
    for (const m of among) {
      if (m === except || !this.#usable(m)) continue;
      const load = (this.#load(m) + 1) / m.rate;
      if (load < bestLoad) {
        best = m;
        bestLoad = load;
      }
    }
    return best;
  }

  /**
   * The work `m` carries: its calls in flight (a walk asking pages ahead weighs more than a series
   * of one page), plus one for each of its streams between two calls, seen less than IDLE_MS ago
   * (older ones are forgotten).
   */
  #load(m: Member): number {
    const now = this.#clock.now();
    let n = 0;
    for (const calls of m.live.values()) n += calls;
    for (const [key, at] of m.lastSeen) {
      if (now - at > IDLE_MS || this.#assigned.get(key) !== m) m.lastSeen.delete(key);
      else if (!m.live.has(key)) n++;
    }
    return n;
  }

  /** Every token (of `among`) is held or used up: a new stream waits on the held token that frees first, or the first token. */
  #fallback(among: readonly Member[] = this.#members): Member {
    const open = among.filter((m) => !this.#usedUp(m));
    if (open.length === 0) return among[0]!;
    return open.reduce((a, m) => (m.heldUntil < a.heldUntil ? m : a), open[0]!);
  }

  /**
   * A token the service does not know: without its place in the pool, the user cannot tell which
   * entry to fix. Named as the summary names it (position, redacted, first 8 digits of its hash).
   */
  #namingToken(m: Member, error: unknown): unknown {
    if (!(error instanceof ApiError) || (error.code !== 'QL_API_TOKEN_INVALID' && error.ret !== 401)) return error;
    const which = `token ${m.index + 1} of ${this.#members.length} of the pool, ${m.label} [${m.hash.slice(0, 8)}]`;
    return new ApiError({
      code: error.code,
      ...(error.ret !== undefined ? { ret: error.ret } : {}),
      ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}),
      serviceMessage: `${error.serviceMessage} (${which})`,
      ...(error.trace !== undefined ? { trace: error.trace } : {}),
      endpoint: error.endpoint,
      codes: error.codes,
      retryable: error.retryable,
      cause: error,
    });
  }

  /**
   * A 604 of a call no token of the pool covers: its token's hint ("a token on a plan that covers
   * them") reads as if the pool lacked one, when it may hold one for each market the request mixes.
   */
  #poolRefusal(covered: boolean, error: unknown): unknown {
    if (covered || this.#members.length < 2 || !(error instanceof ApiError) || error.ret !== 604 || error.codes.length === 0) return error;
    return new ApiError({
      code: error.code,
      ret: error.ret,
      ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}),
      serviceMessage: error.serviceMessage,
      ...(error.trace !== undefined ? { trace: error.trace } : {}),
      endpoint: error.endpoint,
      codes: error.codes,
      retryable: error.retryable,
      cause: error,
      hint: poolRefusalHint(error.codes, this.#members.map((m) => m.limits)),
    });
  }

  /** With no token of `among` (those covering the call) left: the exhaustion that resets first (a stream can resume then), else `error`. */
  #lastError(error: unknown, among: readonly Member[]): unknown {
    const used = among.filter((m) => this.#usedUp(m)).map((m) => m.exhausted!);
    if (used.length === among.length) return used.reduce((a, e) => (e.resetAt < a.resetAt ? e : a), used[0]!);
    return error;
  }
}
