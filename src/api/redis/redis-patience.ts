/**
 * How long the shared limiter waits for its Redis to come back (a restart, a failover) before a
 * command fails as "down". Meanwhile nothing is admitted, so nothing is sent: the wait only spares
 * a long run from failing on a Redis that is back in a few seconds. One outage is one wait, shared
 * by every command that meets it, said once when it starts and once when it ends.
 */
import { once } from 'node:events';
import type { Redis } from 'ioredis';

/** What the link says of an outage (the CLI prints it at warn). */
export interface CoordinatorWait {
  readonly event: 'coordinator-wait' | 'coordinator-back';
  readonly message: string;
  /** coordinator-wait: the patience; coordinator-back: how long Redis was away. */
  readonly waitMs: number;
}

/** A command that failed is asked again this soon when the connection still looks up (a frozen server). */
const ASK_AGAIN_MS = 250;

export class RedisPatience {
  /** When the current outage began (the first failed command), undefined while Redis answers. */
  private downSince: number | undefined;
  private readonly closed = new AbortController();

  constructor(
    private readonly redis: Redis,
    private readonly target: string,
    /** Infinity: until Redis is back or the command stops (a worker run until stopped). */
    readonly patienceMs: number,
    private readonly say: (wait: CoordinatorWait) => void = () => undefined,
    /** A stop (SIGTERM) ends every wait at once: the run is committing what it has, not waiting for Redis. */
    stop?: AbortSignal,
  ) {
    stop?.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Redis answered: an outage, if there was one, is over. */
  answered(): void {
    if (this.downSince === undefined) return;
    const awayMs = Date.now() - this.downSince;
    this.downSince = undefined;
    this.say({ event: 'coordinator-back', waitMs: awayMs, message: `the coordinator ${this.target} answers again after ${seconds(awayMs)} s; requests go on` });
  }

  /**
   * A command failed: resolves once it is worth asking again (the connection is back, or a moment
   * passed on one that looks up), or to false when the patience has run out (or the link closed).
   */
  async waitForReturn(reason: string): Promise<boolean> {
    const now = Date.now();
    if (this.downSince === undefined) {
      this.downSince = now;
      this.say({
        event: 'coordinator-wait',
        waitMs: this.patienceMs,
        message: `the coordinator ${this.target} is unreachable (${reason}): no request is admitted without it; ${
          Number.isFinite(this.patienceMs) ? `waiting up to ${seconds(this.patienceMs)} s for it to come back (--coordinator-patience)` : 'waiting for it to come back, however long (until stopped)'
        }`,
      });
    }
    const leftMs = this.downSince + this.patienceMs - now;
    if (leftMs <= 0 || this.closed.signal.aborted) return false;
    const stop = new AbortController();
    const closed = () => stop.abort();
    this.closed.signal.addEventListener('abort', closed, { once: true });
    try {
      // ioredis reconnects by itself: a connection that is down is waited for, one that is up (a
      // server that took too long to answer) is asked again shortly.
      const back = this.redis.status === 'ready' ? delayed(Math.min(ASK_AGAIN_MS, leftMs), stop.signal) : once(this.redis, 'ready', { signal: stop.signal });
      // No timer for a wait without end (one past 2^31 ms would fire at once).
      await Promise.race(Number.isFinite(leftMs) ? [back, delayed(leftMs, stop.signal)] : [back]).catch(() => undefined);
    } finally {
      stop.abort();
      this.closed.signal.removeEventListener('abort', closed);
    }
    return !this.closed.signal.aborted;
  }

  /** How long the current outage has lasted, for the message of a command that gives up. */
  get awayMs(): number {
    return this.downSince === undefined ? 0 : Date.now() - this.downSince;
  }

  /** The link closes: every wait ends at once. */
  close(): void {
    this.closed.abort();
  }
}

function delayed(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
