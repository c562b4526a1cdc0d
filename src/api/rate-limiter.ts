/**
 * An exact sliding-window scheduler over an injected Clock and Sleep.
 *
 * Why not bottleneck: bottleneck reads Date.now() and setTimeout directly, so it cannot be driven
 * by an injected clock, and its reservoir/minTime model is not the sliding-window rule the service
 * applies ("admitted iff, for each limit N per W ms, fewer than N admitted requests arrived in
 * (t-W, t]"). Running exactly at that rule is what lets a plan be used to its last request, and an
 * injected clock is what lets tests prove it without sleeping.
 *
 * What is stamped: the server stamps a request when it arrives, some unknown time after we admit
 * it and before its answer comes back. So a request occupies every window it belongs to from its
 * admission until its release (while in flight it counts as "just arrived"), and is then stamped
 * with its release time, which is never earlier than its arrival. Requests admitted later can
 * therefore never meet a window the server still sees as full, however arrivals bunch up in
 * flight; the price is about one round trip per window. With a virtual clock that does not move
 * during a request, the stamps are exact.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/component.js';
import { logsAt } from '../core/log-helpers.js';
import { AbortedError } from '../core/errors.js';
import { abortReason, type Sleep } from './sleep.js';

/** One limit: at most `limit` admissions in any window of `windowMs` milliseconds, per `key` (+Infinity: none). */
export interface WindowRule {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimiterOptions {
  clock: Clock;
  sleep: Sleep;
  /** Added to every window's length, for clock granularity and drift. Default 0. */
  marginMs?: number;
  /**
   * Admitted requests not yet released. Checked at admission, not before waiting, so a request
   * held by its own gap never blocks a slot, and nothing waits between its admission and its send.
   */
  maxInFlight?: number;
  /** Waits of `waitLogMs` or longer are logged at debug. Default: none. */
  logger?: Logger;
  /** Default WAIT_LOG_MS. */
  waitLogMs?: number;
}

/**
 * Waits shorter than this are the ordinary pacing of a busy plan (many per second) and would
 * drown the request lines; a longer one says a window is full (minute, day share, a gap).
 */
export const WAIT_LOG_MS = 500;

/** An admitted request. Call release() exactly once when its answer has ended (or it failed). */
export interface Permit {
  readonly admittedAt: number;
  release(): void;
  /** Instead of release(): the request never reached the server, so it leaves no stamp in any window. */
  cancel(): void;
}

interface Waiter {
  readonly rules: readonly WindowRule[];
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
  /** Clock time it started waiting. */
  readonly since: number;
}

interface Window {
  /** Release stamps of finished requests, ascending (seeded ones included). */
  stamps: number[];
  /**
   * This process's own release stamps, ascending: what recentStamps reports. Seeded stamps are
   * left out, so a process that saves them beside the earlier file does not count them twice.
   */
  own: number[];
  /** Admitted, not yet released: they count as inside the window whatever the time. */
  inFlight: number;
  /** Its length, as its rules give it (recentStamps tells it with the stamps); unset for a window only seeded. */
  windowMs?: number;
}

export class SlidingWindowLimiter {
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly marginMs: number;
  private readonly maxInFlight: number;
  private readonly logger: Logger | undefined;
  private readonly waitLogMs: number;
  private readonly windows = new Map<string, Window>();
  private readonly queue: Waiter[] = [];
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private wakeAt = Number.POSITIVE_INFINITY;
  private wakeAbort: AbortController | undefined;
  private admittedCount = 0;
  private inFlightCount = 0;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.sleep = options.sleep;
    this.marginMs = options.marginMs ?? 0;
    this.maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
    this.logger = options.logger;
    this.waitLogMs = options.waitLogMs ?? WAIT_LOG_MS;
  }

  /** Admissions so far. */
  get admitted(): number {
    return this.admittedCount;
  }

  /** Admitted and not yet released. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Resolves once every rule allows one more request and an in-flight slot is free. Waiters are
   * served first come, first served among those whose rules allow them (a request held by its own
   * gap does not hold back the others).
   */
  acquire(rules: readonly WindowRule[], signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    // A lifted limit (+Infinity, "unlimited" in a plans file) keeps no window: no stamps are stored
    // or scanned for it, so an unthrottled replay costs the same per request however long it runs.
    if (rules.some((r) => !Number.isFinite(r.limit))) rules = rules.filter((r) => Number.isFinite(r.limit));
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        rules,
        resolve,
        reject,
        signal,
        since: this.clock.now(),
        onAbort: () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal ? abortReason(signal) : new AbortedError());
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /**
   * Admit nobody before `until` (clock ms). Used when the service still answered 429: the server's
   * view of the windows differs from ours (skew, another process on the token), so back off.
   */
  pauseUntil(until: number): void {
    if (until > this.pausedUntil) this.pausedUntil = until;
    this.pump();
  }

  /**
   * Fail every request still waiting for a slot with `error` (the service said the day is used up:
   * nothing queued may be sent). Later acquire() calls queue as usual; the caller stops making them.
   */
  failWaiting(error: unknown): void {
    const waiting = this.queue.splice(0);
    for (const waiter of waiting) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(error);
    }
    this.cancelWake();
  }

  /**
   * Earliest clock time at which `rules` would admit one more request (ignores the queue);
   * +Infinity while in-flight requests alone fill a window (their release pumps).
   */
  earliestAdmission(rules: readonly WindowRule[], now = this.clock.now()): number {
    let earliest = Math.max(now, this.pausedUntil);
    for (const rule of rules) {
      const window = this.windows.get(rule.key);
      if (!window) continue;
      const room = rule.limit - window.inFlight;
      if (room <= 0) return Number.POSITIVE_INFINITY;
      const list = window.stamps;
      if (list.length < room) continue;
      // Fewer than `room` stamps may lie in (t - W, t]: the room-th newest must be <= t - W.
      const pivot = list[list.length - room]!;
      earliest = Math.max(earliest, pivot + rule.windowMs + this.marginMs);
    }
    return earliest;
  }

  /**
   * The stamps of this process's own sends each window still holds at `now` (those that can still
   * hold back a request), with the window's length: what a later process on the token must respect
   * (recent-sends.ts, which adds what earlier processes left). Seeded stamps are not in it, and
   * neither are requests in flight: it is read once they have all ended.
   */
  recentStamps(now = this.clock.now()): Map<string, { windowMs: number; stamps: number[] }> {
    const out = new Map<string, { windowMs: number; stamps: number[] }>();
    for (const [key, window] of this.windows) {
      const windowMs = window.windowMs;
      if (windowMs === undefined) continue;
      const stamps = window.own.filter((t) => t > now - windowMs - this.marginMs);
      if (stamps.length > 0) out.set(key, { windowMs, stamps });
    }
    return out;
  }

  /**
   * Stamps sent by another process on the token (an earlier run), counted in these windows as the
   * service counts them. Given before the first admission; stamps after `now` count as `now`.
   */
  seed(windows: ReadonlyMap<string, readonly number[]>, now = this.clock.now()): void {
    for (const [key, stamps] of windows) {
      const window = this.window(key);
      window.stamps = [...window.stamps, ...stamps.map((t) => Math.min(t, now))].sort((a, b) => a - b);
    }
    this.pump();
  }

  private window(key: string): Window {
    let window = this.windows.get(key);
    if (!window) {
      window = { stamps: [], own: [], inFlight: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  private admit(rules: readonly WindowRule[], at: number): Permit {
    for (const rule of rules) {
      const window = this.window(rule.key);
      window.inFlight++;
      window.windowMs = rule.windowMs;
    }
    this.admittedCount++;
    this.inFlightCount++;
    let released = false;
    return {
      admittedAt: at,
      cancel: () => {
        if (released) return;
        released = true;
        for (const rule of rules) this.window(rule.key).inFlight--;
        this.inFlightCount--;
        this.pump();
      },
      release: () => {
        if (released) return;
        released = true;
        const now = this.clock.now();
        for (const rule of rules) {
          const window = this.window(rule.key);
          window.inFlight--;
          const list = window.stamps;
          // Release times are non-decreasing, so appending keeps the list sorted.
          list.push(Math.max(now, list[list.length - 1] ?? now));
          window.own.push(list[list.length - 1]!);
          // Keep only what can still matter: the newest `limit` stamps inside the window.
          const horizon = now - rule.windowMs - this.marginMs;
          prune(list, horizon, rule.limit);
          prune(window.own, horizon, rule.limit);
        }
        this.inFlightCount--;
        this.pump();
      },
    };
  }

  private pump(): void {
    const now = this.clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.queue.length; ) {
      // Full: a release pumps again; no wake-up needed for this.
      if (this.inFlightCount >= this.maxInFlight) return;
      const waiter = this.queue[i]!;
      const at = this.earliestAdmission(waiter.rules, now);
      if (at <= now) {
        this.queue.splice(i, 1);
        waiter.signal?.removeEventListener('abort', waiter.onAbort);
        if (now - waiter.since >= this.waitLogMs) this.logWait(waiter, now);
        waiter.resolve(this.admit(waiter.rules, now));
      } else {
        if (at < next) next = at;
        i++;
      }
    }
    if (this.queue.length === 0 || next === Number.POSITIVE_INFINITY) {
      this.cancelWake();
      return;
    }
    if (next < this.wakeAt) this.scheduleWake(next, now);
  }

  private logWait(waiter: Waiter, now: number): void {
    if (!this.logger || !logsAt(this.logger, 'debug')) return;
    this.logger.debug('waited for the rate limit', {
      event: 'limiter-wait',
      waitMs: now - waiter.since,
      rules: waiter.rules.map((r) => `${r.key} ${r.limit}/${r.windowMs}ms`),
      queued: this.queue.length,
      paused: this.pausedUntil > waiter.since,
    });
  }

  private cancelWake(): void {
    this.wakeAbort?.abort();
    this.wakeAbort = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }

  private scheduleWake(at: number, now: number): void {
    this.cancelWake();
    const controller = new AbortController();
    this.wakeAbort = controller;
    this.wakeAt = at;
    this.sleep(at - now, controller.signal).then(
      () => {
        if (this.wakeAbort !== controller) return;
        this.wakeAbort = undefined;
        this.wakeAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      () => {
        // Cancelled because an earlier wake-up was needed; that one pumps.
        if (this.wakeAbort === controller) {
          this.wakeAbort = undefined;
          this.wakeAt = Number.POSITIVE_INFINITY;
          this.pump();
        }
      },
    );
  }
}

/** Drops, from the front of an ascending list, stamps at or before `horizon` and all but the newest `limit`. */
function prune(list: number[], horizon: number, limit: number): void {
  let drop = 0;
  while (drop < list.length && (list[drop]! <= horizon || list.length - drop > limit)) drop++;
  if (drop > 0) list.splice(0, drop);
}
