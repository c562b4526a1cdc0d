/**
 * An exact sliding-window scheduler over an injected Clock and Sleep.
 *
 * Why not bottleneck: bottleneck reads Date.now() and setTimeout directly, so it cannot be driven
 * by an injected clock, and its reservoir/minTime model is not the sliding-window rule the service
 * applies ("admitted iff, for each limit N per W ms, fewer than N admitted requests arrived in
 * (t-W, t]"). Running exactly at that rule is what lets a plan be used to its last request, and an
 * injected clock is what lets tests prove it without sleeping.
 */
import type { Clock } from '../core/clock.js';
import { AbortedError } from '../core/errors.js';
import { abortReason, type Sleep } from './sleep.js';

/** One limit: at most `limit` admissions in any window of `windowMs` milliseconds, per `key`. */
export interface WindowRule {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimiterOptions {
  clock: Clock;
  sleep: Sleep;
  /**
   * Added to every window's length. Requests reach the server some time after they are stamped
   * here, and jitter can bunch arrivals; a few ms keeps real-clock runs free of 429s. 0 with an
   * injected clock.
   */
  marginMs?: number;
  /**
   * Admitted requests not yet released. Checked at admission, not before waiting, so a request
   * held by its own gap never blocks a slot, and nothing waits between its stamp and its send.
   */
  maxInFlight?: number;
}

interface Waiter {
  readonly rules: readonly WindowRule[];
  readonly resolve: (admittedAt: number) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export class SlidingWindowLimiter {
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly marginMs: number;
  /** Admission stamps per rule key, ascending. */
  private readonly stamps = new Map<string, number[]>();
  private readonly queue: Waiter[] = [];
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private wakeAt = Number.POSITIVE_INFINITY;
  private wakeAbort: AbortController | undefined;
  private admittedCount = 0;
  private inFlightCount = 0;
  private readonly maxInFlight: number;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.sleep = options.sleep;
    this.marginMs = options.marginMs ?? 0;
    this.maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
  }

  /** Admitted and not yet released. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** The request admitted earlier has ended (answered or failed): its in-flight slot is free. */
  release(): void {
    if (this.inFlightCount > 0) this.inFlightCount--;
    this.pump();
  }

  /** Admissions so far. */
  get admitted(): number {
    return this.admittedCount;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Resolves with the admission time once every rule allows one more request and an in-flight slot
   * is free; the admission is recorded against every rule. Call release() when the request ends. Waiters are served first come, first served among those whose
   * rules allow them (a request held by its own gap does not hold back the others).
   */
  acquire(rules: readonly WindowRule[], signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        rules,
        resolve,
        reject,
        signal,
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

  /** Earliest clock time at which `rules` would admit one more request (ignores the queue). */
  earliestAdmission(rules: readonly WindowRule[], now = this.clock.now()): number {
    let earliest = Math.max(now, this.pausedUntil);
    for (const rule of rules) {
      const list = this.stamps.get(rule.key);
      if (!list || list.length < rule.limit) continue;
      // Fewer than `limit` stamps may lie in (t - W, t]: the limit-th newest must be <= t - W.
      const pivot = list[list.length - rule.limit];
      if (pivot === undefined) continue;
      earliest = Math.max(earliest, pivot + rule.windowMs + this.marginMs);
    }
    return earliest;
  }

  private record(rules: readonly WindowRule[], at: number): void {
    for (const rule of rules) {
      let list = this.stamps.get(rule.key);
      if (!list) {
        list = [];
        this.stamps.set(rule.key, list);
      }
      list.push(at);
      // Keep only what can still matter: the newest `limit` stamps inside the window.
      const horizon = at - rule.windowMs - this.marginMs;
      let drop = 0;
      while (drop < list.length && (list[drop]! <= horizon || list.length - drop > rule.limit)) drop++;
      if (drop > 0) list.splice(0, drop);
    }
    this.admittedCount++;
  }

  private pump(): void {
    const now = this.clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.queue.length; ) {
      // Full: release() pumps again; no wake-up needed for this.
      if (this.inFlightCount >= this.maxInFlight) return;
      const waiter = this.queue[i]!;
      const at = this.earliestAdmission(waiter.rules, now);
      if (at <= now) {
        this.queue.splice(i, 1);
        waiter.signal?.removeEventListener('abort', waiter.onAbort);
        this.record(waiter.rules, now);
        this.inFlightCount++;
        waiter.resolve(now);
      } else {
        if (at < next) next = at;
        i++;
      }
    }
    if (this.queue.length === 0) {
      this.cancelWake();
      return;
    }
    if (next < this.wakeAt) this.scheduleWake(next, now);
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
