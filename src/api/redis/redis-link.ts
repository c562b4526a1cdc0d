/**
 * One connection to the coordinating Redis, with the limiter's scripts defined on it.
 *
 * Fail closed: no offline queue (a command while disconnected fails at once instead of waiting
 * to be sent later, when its answer would be stale) and a command timeout (a Redis that hangs is a
 * Redis that is down). Every failure becomes CoordinatorDownError, which the client retries with its
 * backoff like a transport error and then gives up with: nothing is admitted without Redis.
 * ioredis keeps reconnecting meanwhile, so a restarted Redis is picked up by the next attempt, and
 * `defineCommand` sends EVALSHA and falls back to EVAL on NOSCRIPT (an empty, restarted Redis).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { CoordinatorDownError, EnvironmentError } from '../../core/errors.js';
import { redactUrl } from '../../core/redact.js';
import { confirmDatabase, coordinatorRefusal, failureReason, reasonBeside } from './redis-refusal.js';
import { ADMIT_LUA, DAY_LUA, RELEASE_LUA } from './redis-scripts.js';
import { RedisPatience, type CoordinatorWait } from './redis-patience.js';

/** A subscribe that failed is asked again after this long. */
const RESUBSCRIBE_MS = 1000;

export type ScriptReply = [number, number, number];

interface ScriptCommands {
  qlAdmit(numKeys: number, ...args: (string | number)[]): Promise<ScriptReply>;
  qlRelease(numKeys: number, ...args: (string | number)[]): Promise<number>;
  qlDay(numKeys: number, ...args: (string | number)[]): Promise<number>;
}

export interface RedisLinkOptions {
  /** A command (or the first connection) that takes longer fails as "down". Default 2000 ms. */
  commandTimeoutMs?: number;
  /**
   * How long a command waits for a Redis that went away to come back (a restart, a failover) before
   * it fails as "down"; nothing is admitted meanwhile. Default 0: it fails at once (the client's
   * retries then take it); Infinity: until it is back or stopWaiting. The first connection never
   * waits: a Redis missing at the start is said at once.
   */
  patienceMs?: number;
  /** Told when such a wait begins and when Redis answers again. */
  onWait?: (wait: CoordinatorWait) => void;
  /** Ends such waits at once (the command is stopping). */
  stopWaiting?: AbortSignal;
}

export class RedisLink {
  readonly target: string;
  readonly redis: Redis;
  private lastError = '';
  private readonly timeoutMs: number;
  /** A second connection in subscriber mode (Redis requires it), made at the first listener. */
  private subscriber: Redis | undefined;
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly patience: RedisPatience | undefined;

  constructor(url: string, options: RedisLinkOptions = {}) {
    // Printed as every other URL is: the password masked (core/redact.ts).
    this.target = redactUrl(url);
    const timeout = options.commandTimeoutMs ?? 2000;
    this.timeoutMs = timeout;
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeout,
      connectTimeout: timeout,
      // Keep trying to reconnect (a restart is picked up), never faster than every 100 ms.
      retryStrategy: (times) => Math.min(100 * times, 1000),
      // Only our scripts and reads: no ready check that would delay the first command.
      enableReadyCheck: false,
    });
    // ioredis prints unhandled 'error' events; the reason is kept for the next message instead.
    this.redis.on('error', (error: Error) => {
      this.lastError = failureReason(error);
    });
    const patienceMs = options.patienceMs ?? 0;
    if (patienceMs > 0) this.patience = new RedisPatience(this.redis, this.target, patienceMs, options.onWait, options.stopWaiting);
    this.redis.defineCommand('qlAdmit', { lua: ADMIT_LUA });
    this.redis.defineCommand('qlRelease', { lua: RELEASE_LUA });
    this.redis.defineCommand('qlDay', { lua: DAY_LUA });
  }

  /** Connects and checks with a PING: fails with CoordinatorDownError when Redis is not there. */
  async open(): Promise<void> {
    await this.once(async () => {
      try {
        if (this.redis.status === 'wait') await this.redis.connect();
        await this.redis.ping();
        await confirmDatabase(this.redis);
      } catch (error) {
        // A refused AUTH closes the connection: the command then fails as "not connected", and
        // the refusal is the connection's last error.
        const db = this.redis.options.db ?? 0;
        throw coordinatorRefusal(this.target, db, error) ?? coordinatorRefusal(this.target, db, new Error(this.lastError)) ?? error;
      }
    });
  }

  admit(keys: readonly string[], args: readonly (string | number)[]): Promise<ScriptReply> {
    return this.call(async () => {
      const reply = await this.commands().qlAdmit(keys.length, ...keys, ...args);
      return [Number(reply[0]), Number(reply[1]), Number(reply[2])];
    });
  }

  release(keys: readonly string[], args: readonly (string | number)[]): Promise<number> {
    return this.call(() => this.commands().qlRelease(keys.length, ...keys, ...args));
  }

  day(key: string, args: readonly (string | number)[]): Promise<number> {
    return this.call(() => this.commands().qlDay(1, key, ...args));
  }

  hgetall(key: string): Promise<Record<string, string>> {
    return this.call(() => this.redis.hgetall(key));
  }

  /** Every key matching `pattern` (SCAN, never KEYS: it does not block the server). */
  scan(pattern: string): Promise<string[]> {
    return this.call(async () => {
      const found = new Set<string>();
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        for (const key of keys) found.add(key);
        cursor = next;
      } while (cursor !== '0');
      return [...found].sort();
    });
  }

  /** Calls `lost` each time the connection closes (Redis shut down, restarted, the network cut). */
  onLost(lost: () => void): () => void {
    this.redis.on('close', lost);
    return () => {
      this.redis.off('close', lost);
    };
  }

  /**
   * Calls `wake` on every message of `channel` (releases by any process). Best effort: a message
   * lost while reconnecting only delays a waiter until its next poll. Returns the function that
   * stops listening.
   *
   * The subscriber subscribes again itself at each reconnect. ioredis' own resubscribe leaves its
   * promise unhandled, so a restarted Redis that answers LOADING, or answers late, would end the
   * process with an unhandled rejection.
   */
  listen(channel: string, wake: () => void): () => void {
    const subscriber = (this.subscriber ??= this.openSubscriber());
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      subscriber.subscribe(channel).catch(() => undefined);
    }
    set.add(wake);
    return () => {
      set.delete(wake);
    };
  }

  async close(): Promise<void> {
    this.patience?.close();
    // quit() waits for replies to what was sent; a dead server gets disconnect() instead, and so
    // does one that keeps the connection and answers nothing (frozen): quit() would wait for ever.
    if (this.redis.status === 'ready') await Promise.race([this.redis.quit().catch(() => undefined), delay(this.timeoutMs, undefined, { ref: false })]);
    this.redis.disconnect();
    this.subscriber?.disconnect();
  }

  private openSubscriber(): Redis {
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false, autoResubscribe: false });
    subscriber.on('error', () => undefined);
    subscriber.on('message', (name: string) => {
      for (const listener of this.listeners.get(name) ?? []) listener();
    });
    let retry: NodeJS.Timeout | undefined;
    const subscribeAll = () => {
      retry = undefined;
      if (this.listeners.size === 0) return;
      subscriber.subscribe(...this.listeners.keys()).catch(() => {
        // Refused or answered late: ask again while this connection lasts (a reconnect asks anyway).
        if (subscriber.status === 'ready') retry ??= setTimeout(subscribeAll, RESUBSCRIBE_MS).unref();
      });
    };
    let connectedBefore = false;
    subscriber.on('ready', () => {
      // The first connection sends the subscriptions queued while it connected.
      if (connectedBefore) subscribeAll();
      connectedBefore = true;
    });
    return subscriber;
  }

  private commands(): ScriptCommands {
    return this.redis as unknown as ScriptCommands;
  }

  /** One command, waiting out an outage of up to the patience (asked again each time Redis may be back). */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    const patience = this.patience;
    if (patience === undefined) return this.once(work);
    for (;;) {
      try {
        const value = await this.once(work);
        patience.answered();
        return value;
      } catch (error) {
        if (!(error instanceof CoordinatorDownError)) throw error;
        if (!(await patience.waitForReturn(error.reason))) {
          // The patience is spent: the client's own retries would only wait longer.
          throw new CoordinatorDownError(this.target, `${error.reason}; away for ${Math.round(patience.awayMs / 1000)} s`, { retryable: false });
        }
      }
    }
  }

  private async once<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof EnvironmentError) throw error;
      // A user whose ACL allows PING but not the scripts (NOPERM) is refused the same way every
      // time: a setting to fix (exit 2), not a Redis to wait for.
      const refusal = coordinatorRefusal(this.target, this.redis.options.db ?? 0, error);
      if (refusal !== undefined) throw refusal;
      // "Not connected" says less than the connection's own last error (ECONNREFUSED...), when there is one.
      throw new CoordinatorDownError(this.target, reasonBeside(error, this.lastError));
    }
  }
}
