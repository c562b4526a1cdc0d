/**
 * The sliding-window limiter of one token, shared through Redis (LimiterPort): every admission is
 * one call of the admission script (redis-scripts.ts), which checks every window and the day and,
 * when all allow it, takes a slot and a request of the day in the same atomic step.
 *
 * A refused request is told when to ask again (the script knows the oldest stamp that must leave a
 * window) and sleeps until then: no busy loop. While only in-flight requests fill a window nobody
 * knows when they end: it waits for a release, which the release script publishes on the token's
 * channel (so every process's waiters ask again at once), at most POLL_MS as a safety net.
 *
 * What stays local: the cap on this process's in-flight requests, and a pause after a 429 (the
 * service disagreed with the shared windows: this process backs off; the others learn it from
 * their own 429s, if any).
 */
import { logsAt } from '../../core/log-helpers.js';
import type { AdmissionContext, LimiterPort } from '../admission.js';
import type { Permit, WindowRule } from '../rate-limiter.js';
import { WAIT_LOG_MS } from '../rate-limiter.js';
import { abortReason } from '../sleep.js';
import type { RedisLink } from './redis-link.js';
import type { TokenKeys } from './redis-keys.js';
import type { RedisQuota } from './redis-quota.js';

/**
 * Longest wait (real time) before asking again while in-flight requests fill a window: releases are
 * published, so this only bounds the delay of a message lost while reconnecting.
 */
export const POLL_MS = 250;

interface Waiter {
  /** Cuts the current wait short: a local release, an abort, failWaiting. */
  nap: AbortController | undefined;
  /** The current wait is for an instant the script named: a release elsewhere does not bring it closer. */
  timed: boolean;
  failure: unknown;
  readonly signal: AbortSignal | undefined;
}

export class RedisLimiter implements LimiterPort {
  private inFlightCount = 0;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private readonly waiters = new Set<Waiter>();
  /**
   * Waiters in line per rule set, first come first served: only the head of a line asks Redis (the
   * others would get the same answer), so a crowd of waiters costs one script call per slot, not
   * one each. Lines of different rules (a gap-held batch, a plain request) do not wait on each other.
   */
  private readonly lines = new Map<string, Waiter[]>();
  private permits = 0;
  private admittedCount = 0;
  /** The restart guard's wait was said (once a process: it is the same wait for every request). */
  private guardSaid = false;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: TokenKeys,
    private readonly quota: RedisQuota,
    private readonly context: AdmissionContext,
  ) {
    // Releases by other processes wake this one's waiters (those waiting on in-flight requests).
    const unlistenReleases = link.listen(keys.released, () => this.wakeAll());
    // A lost connection wakes every waiter, also one held for an instant (the restart guard's
    // minute): its next admission fails as "down" at once instead of when the hold ends.
    const unwatchLoss = link.onLost(() => this.wakeEvery());
    this.unlisten = () => {
      unlistenReleases();
      unwatchLoss();
    };
  }

  /** Stops listening for releases (the client is closed). */
  readonly unlisten: () => void;

  get inFlight(): number {
    return this.inFlightCount;
  }

  get admitted(): number {
    return this.admittedCount;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  pauseUntil(until: number): void {
    if (until > this.pausedUntil) this.pausedUntil = until;
  }

  failWaiting(error: unknown): void {
    for (const waiter of this.waiters) {
      waiter.failure = error;
      waiter.nap?.abort();
    }
  }

  async acquire(rules: readonly WindowRule[], signal?: AbortSignal): Promise<Permit> {
    // A lifted limit keeps no window, as in SlidingWindowLimiter.
    const finite = rules.filter((r) => Number.isFinite(r.limit));
    const waiter: Waiter = { nap: undefined, timed: false, failure: undefined, signal };
    const onAbort = () => waiter.nap?.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.waiters.add(waiter);
    const lineKey = finite.map((r) => `${r.key}/${r.limit}/${r.windowMs}`).join('|');
    let line = this.lines.get(lineKey);
    if (!line) {
      line = [];
      this.lines.set(lineKey, line);
    }
    line.push(waiter);
    const since = this.context.clock.now();
    try {
      while (line[0] !== waiter) {
        if (signal?.aborted) throw abortReason(signal);
        if (waiter.failure !== undefined) throw waiter.failure;
        await this.nap(waiter, Number.POSITIVE_INFINITY);
      }
      for (;;) {
        if (signal?.aborted) throw abortReason(signal);
        if (waiter.failure !== undefined) throw waiter.failure;
        const now = this.context.clock.now();
        if (this.inFlightCount >= this.context.maxInFlight) {
          await this.nap(waiter, Number.POSITIVE_INFINITY);
          continue;
        }
        if (this.pausedUntil > now) {
          await this.nap(waiter, this.pausedUntil - now);
          continue;
        }
        const answer = await this.admitOrWait(finite);
        if ('permit' in answer) {
          this.logWait(finite, since);
          return answer.permit;
        }
        // Asked again at the time the script gave (in its own clock: the wait is a duration), or,
        // while only in-flight requests fill a window, at the first release anywhere.
        if (answer.release) await this.nap(waiter, Math.min(answer.waitMs, POLL_MS), true);
        else await this.nap(waiter, answer.waitMs, false, true);
      }
    } catch (error) {
      this.quota.notCharged();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.waiters.delete(waiter);
      line.splice(line.indexOf(waiter), 1);
      // The next in line asks at once (it may be admitted in the same instant).
      if (line.length === 0) this.lines.delete(lineKey);
      else line[0]!.nap?.abort();
    }
  }

  /**
   * One admission script call, no waiting: a permit, or the ms to wait before asking again (throws
   * QuotaExhaustedError when the day is used up). Ignores this process's in-flight cap and pause.
   */
  async tryAcquire(rules: readonly WindowRule[]): Promise<Permit | number | 'release'> {
    const answer = await this.admitOrWait(rules.filter((r) => Number.isFinite(r.limit)));
    return 'permit' in answer ? answer.permit : answer.release ? 'release' : answer.waitMs;
  }

  private async admitOrWait(rules: readonly WindowRule[]): Promise<{ permit: Permit } | { waitMs: number; release: boolean }> {
    const { context, keys } = this;
    const day = this.quota.dayArgs();
    const id = `${day.field}:${++this.permits}`;
    const ruleKeys = rules.flatMap((r) => [keys.stamps(r.key), keys.flight(r.key)]);
    const ruleArgs = rules.flatMap((r) => [r.limit, r.windowMs]);
    const [status, now, value] = await this.link.admit(
      [keys.epoch, day.key, ...ruleKeys],
      [this.timeArg(), id, context.requestTimeoutMs, context.marginMs, day.limit, day.field, day.own, day.ttlMs, '', day.zone, day.resetMs, ...ruleArgs],
    );
    if (status === 2) throw this.quota.usedUp(day.day, value);
    if (status !== 0) {
      // On Redis TIME the wait is a duration from the script's instant (the local clock is another
      // clock). On a virtual clock the script's instant is ours, and other clients may have moved
      // it while the reply travelled: count from where it is now.
      const from = context.virtualClock ? context.clock.now() : now;
      if (status === 4) this.sayGuard(value - from);
      return { waitMs: Math.max(1, value - from), release: status === 3 };
    }
    this.quota.charged(day.day);
    this.inFlightCount++;
    this.admittedCount++;
    return { permit: this.permit(id, rules, ruleKeys, ruleArgs) };
  }

  /** Says once, at warn (it is heard without --log-level), why nothing is sent for up to a minute. */
  private sayGuard(waitMs: number): void {
    if (this.guardSaid) return;
    this.guardSaid = true;
    // In the run's clock (a --clock run logs its instants there), not Redis's.
    const until = this.context.clock.now() + waitMs;
    this.context.logger?.warn(
      `the coordinator ${this.link.target} has been up less than a minute (new, or restarted without persistence): it cannot know what was sent in the minute before, so no request goes out before ${new Date(until).toISOString()} (${Math.ceil(waitMs / 1000)} s); a Redis that runs longer costs no wait`,
      { event: 'coordinator-guard', until: new Date(until).toISOString(), waitMs, coordinator: this.link.target },
    );
  }

  private permit(id: string, rules: readonly WindowRule[], ruleKeys: string[], ruleArgs: number[]): Permit {
    let done = false;
    const finish = (cancel: boolean) => {
      if (done) return;
      done = true;
      this.inFlightCount--;
      if (rules.length > 0) {
        // Sent before any admission a wake-up below makes, on the same connection: Redis applies it first.
        this.link.release(ruleKeys, [this.timeArg(), id, this.context.marginMs, cancel ? 1 : 0, this.keys.released, ...ruleArgs]).catch((error: unknown) => {
          // The lease frees the slot later; admissions fail closed meanwhile anyway.
          this.context.logger?.debug('could not release a permit in the coordinator', { event: 'coordinator-release-failed', error: String(error) });
        });
      }
      this.wakeAll();
    };
    return { admittedAt: this.context.clock.now(), release: () => finish(false), cancel: () => finish(true) };
  }

  /**
   * A slot may be free: the head of each line asks again (the others wait for their turn,
   * untouched), unless it waits for an instant the script named: a release turns an in-flight
   * request into a stamp, which does not bring that instant closer, and asking again would cost
   * every process on the token a round trip per release (about five script calls per admission at
   * 20 requests a second with three processes, measured).
   */
  private wakeAll(): void {
    for (const line of this.lines.values()) {
      const head = line[0];
      if (head && !head.timed) head.nap?.abort();
    }
  }

  /** Every waiter asks again, the timed ones too: the answer they wait on may never come. */
  private wakeEvery(): void {
    for (const waiter of this.waiters) waiter.nap?.abort();
  }

  /** The caller's time for a virtual clock (tests), else '' (the script reads Redis TIME). */
  private timeArg(): string | number {
    return this.context.virtualClock ? this.context.clock.now() : '';
  }

  /**
   * Waits `ms` of the clock (or until woken); a wake-up or an abort ends it early without throwing.
   * `realTime`: waiting for a release, which takes no time on a virtual clock, so the wait must
   * not move it: a real timer bounds it instead.
   */
  private async nap(waiter: Waiter, ms: number, realTime = false, timed = false): Promise<void> {
    // Aborted or failed while the script ran: the loop throws without waiting.
    if (waiter.signal?.aborted || waiter.failure !== undefined) return;
    const controller = new AbortController();
    waiter.nap = controller;
    waiter.timed = timed;
    try {
      if (realTime) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          controller.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          }, { once: true });
        });
      } else if (Number.isFinite(ms)) {
        await this.context.sleep(ms, controller.signal).catch(() => undefined);
      } else {
        await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
      }
    } finally {
      waiter.nap = undefined;
      waiter.timed = false;
    }
  }

  private logWait(rules: readonly WindowRule[], since: number): void {
    const logger = this.context.logger;
    const waited = this.context.clock.now() - since;
    if (!logger || waited < WAIT_LOG_MS || !logsAt(logger, 'debug')) return;
    logger.debug('waited for the rate limit', {
      event: 'limiter-wait',
      waitMs: waited,
      rules: rules.map((r) => `${r.key} ${r.limit}/${r.windowMs}ms`),
      queued: this.waiters.size - 1,
      coordinator: this.link.target,
    });
  }
}
