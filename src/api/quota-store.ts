/**
 * The daily request quota of one token, shared by every process that uses the token on this
 * machine through `<stateDir>/quota/<hash16>.json` (the token itself is never written).
 *
 * Requests are reserved in small blocks under a file lock (proper-lockfile) and written atomically
 * (tmp + rename), so two processes together never reserve more than the day's limit; the unused
 * part of a block is given back on close(). A crash loses at most one block for the day, which
 * errs on the side of never exceeding the cap.
 *
 * A plan without a daily cap (`perDay: unlimited` in a plans file, limit +Infinity) keeps no count
 * at all: no file, no lock, nothing per request, so a local replay runs at CPU speed.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { makeDir } from '../core/make-dir.js';
import { basename, join } from 'node:path';
import { DateTime } from 'luxon';
import { TEMP_MARKER, writeFileAtomic } from '../core/atomic-write.js';
import type { Clock } from '../core/clock.js';
import { ConfigError, QuotaExhaustedError } from '../core/errors.js';
import { isLockMaking, LOCK_STALE_MS, lockFs, MAKING_STALE_MS } from './lock-fs.js';
import { checkQuotaTimeZone } from './quota-day.js';

/**
 * proper-lockfile, loaded at the first reservation, not at import: loading it installs signal-exit
 * (listeners for SIGINT, SIGTERM, SIGHUP ..., process.emit and process.reallyExit replaced) and
 * graceful-fs (fs.close patched), and importing quotelake as a library must change nothing
 * process-wide.
 */
type Lockfile = typeof import('proper-lockfile');
let lockfileModule: Promise<Lockfile> | undefined;
// A CommonJS module: its exports are `default` of the namespace (a bundle may give no named ones).
const loadLockfile = () => (lockfileModule ??= import('proper-lockfile').then((m) => (m as { default?: Lockfile }).default ?? m));

export interface QuotaStatus {
  /** Requests counted today (by every process sharing the token), not counting our unused reserve. */
  used: number;
  limit: number;
  remaining: number;
  /** The next midnight in `timeZone`. */
  resetAt: Date;
  /** The quota day, YYYY-MM-DD in `timeZone`. */
  day: string;
  timeZone: string;
  /**
   * Of `used`, requests sent whose answer was lost (timeout, reset): the service may or may not
   * have counted them; they are charged, so the count errs on the side of the cap.
   */
  unknown: number;
}

export interface QuotaStoreOptions {
  stateDir: string;
  token: string;
  limit: number;
  clock: Clock;
  /** IANA zone whose midnight resets the quota (L4); default UTC. */
  timeZone?: string;
  /** Requests reserved per lock; default 1. */
  blockSize?: number;
}

interface QuotaFile {
  version: 1;
  tokenHash: string;
  day: string;
  timeZone: string;
  used: number;
  limit: number;
  /** Of `used`, requests whose answer was lost (QuotaStatus.unknown); absent in older files. */
  unknown?: number;
  updatedAt: string;
}

/**
 * A quota file's text as an object, or why it is none (damaged outside quotelake: a torn file cannot
 * happen with tmp + rename). Read so by a run (QuotaStore) and by the `quota` command's listing.
 */
export function parseQuotaText(text: string): { readonly fields: Partial<QuotaFile> } | { readonly problem: string; readonly cause?: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return { problem: 'not valid JSON', cause };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'not a JSON object' };
  return { fields: parsed as Partial<QuotaFile> };
}

/** First 16 hex digits of sha256(token): names the quota file without revealing the token. */
export function tokenHash16(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 16);
}

export class QuotaStore {
  readonly file: string;
  readonly limit: number;
  readonly timeZone: string;
  private readonly dir: string;
  private readonly hash: string;
  private readonly clock: Clock;
  private readonly blockSize: number;
  /** Reserved in the file but not yet used by this process, valid for `reserveDay`. */
  private reserve = 0;
  private reserveDay = '';
  private chain: Promise<unknown> = Promise.resolve();
  /** Whether killed writers' temp files were looked for (sweepTempFiles). */
  private swept = false;
  private dayCache: { day: string; startMs: number; resetMs: number } | undefined;
  /** The quota day on which the file was last found used up. */
  private exhaustedDay = '';
  /** Answers lost since the file was last written (QuotaStatus.unknown), for today. */
  private unknownPending = 0;
  /** The quota day the service itself answered `daily limit exceeded`, and the error it became. */
  private closed: { day: string; error: QuotaExhaustedError } | undefined;

  constructor(options: QuotaStoreOptions) {
    this.hash = tokenHash16(options.token);
    this.dir = join(options.stateDir, 'quota');
    this.file = join(this.dir, `${this.hash}.json`);
    this.limit = options.limit;
    this.clock = options.clock;
    this.timeZone = options.timeZone ?? 'UTC';
    this.blockSize = Math.max(1, Math.floor(options.blockSize ?? 1));
    checkQuotaTimeZone(this.timeZone);
  }

  /** False for a plan without a daily cap: then nothing is counted or written. */
  get counted(): boolean {
    return Number.isFinite(this.limit);
  }

  /** The quota day and its reset instant at `at` (clock ms). */
  dayOf(at: number = this.clock.now()): { day: string; resetAt: Date } {
    const cached = this.dayCache;
    if (cached && at >= cached.startMs && at < cached.resetMs) {
      return { day: cached.day, resetAt: new Date(cached.resetMs) };
    }
    // Luxon only when the day changes: this runs before every request.
    const local = DateTime.fromMillis(at, { zone: this.timeZone });
    const start = local.startOf('day');
    const resetMs = start.plus({ days: 1 }).toMillis();
    this.dayCache = { day: local.toISODate() ?? '', startMs: start.toMillis(), resetMs };
    return { day: this.dayCache.day, resetAt: new Date(resetMs) };
  }

  /**
   * Takes one request of today's quota, or throws QuotaExhaustedError (with the reset instant)
   * when none is left. Call it right before sending.
   */
  take(): Promise<void> {
    const closed = this.closedByService();
    if (closed) return Promise.reject(closed);
    if (!this.counted) return Promise.resolve();
    const { day } = this.dayOf();
    if (this.reserveDay === day && this.reserve > 0) {
      this.reserve--;
      return Promise.resolve();
    }
    return this.serial(async () => {
      const { day: today, resetAt } = this.dayOf();
      if (this.reserveDay !== today) {
        this.reserve = 0;
        this.reserveDay = today;
      }
      if (this.reserve > 0) {
        this.reserve--;
        return;
      }
      await this.update((state) => {
        const available = this.limit - state.used;
        if (available <= 0) {
          this.exhaustedDay = today;
          throw new QuotaExhaustedError({ resetAt, used: state.used, limit: this.limit });
        }
        const block = Math.min(this.blockSize, available);
        state.used += block;
        // Added, not set: requests that never left may have been given back while the file was written.
        this.reserve += block - 1;
        // The file is now full: later calls can fail before waiting for a rate-limit slot.
        if (state.used >= this.limit) this.exhaustedDay = today;
      });
    });
  }

  /**
   * Cheap check before waiting for a rate-limit slot: once today's quota was found used up, fail
   * at once instead of after the wait (re-reading the file, in case another process gave some back).
   */
  async precheck(): Promise<void> {
    if (!this.counted) return;
    const { day, resetAt } = this.dayOf();
    if (this.exhaustedDay !== day) return;
    if (this.reserveDay === day && this.reserve > 0) return;
    const state = await this.read(day);
    if (state.used >= this.limit) throw new QuotaExhaustedError({ resetAt, used: state.used, limit: this.limit });
    this.exhaustedDay = '';
  }

  /**
   * Gives back one taken request the service did not count (a 429 rejection, or one that never
   * left). Not once the service closed the day: the count then stays at the limit.
   */
  refund(): void {
    const { day } = this.dayOf();
    if (this.counted && this.reserveDay === day && this.closed?.day !== day) this.reserve++;
  }

  /** The service's `daily limit exceeded` of today, if it answered one: nothing more may be sent. */
  closedByService(): QuotaExhaustedError | undefined {
    return this.closed !== undefined && this.closed.day === this.dayOf().day ? this.closed.error : undefined;
  }

  /**
   * One taken request was sent and its answer lost: it stays charged, and the file says how many
   * such with its next write (a reservation or close()): no extra lock per request, and nothing
   * written behind close()'s back.
   */
  noteUnknown(): void {
    if (this.counted) this.unknownPending++;
  }

  /**
   * The service said `daily limit exceeded`: today is used up whatever our count says. Syncs the
   * file and returns the error to throw.
   */
  markExhausted(cause?: unknown): Promise<QuotaExhaustedError> {
    // Closed at once, before the file is synced: a request admitted meanwhile must not be sent.
    const { day, resetAt } = this.dayOf();
    if (this.closed?.day !== day) {
      // A plan without a cap of ours has no count to report (the service has a cap our plan does not know).
      const limit = this.counted ? this.limit : 0;
      this.closed = { day, error: new QuotaExhaustedError({ resetAt, used: limit, limit, cause }) };
    }
    const error = this.closed!.error;
    if (!this.counted) return Promise.resolve(error);
    this.reserve = 0;
    this.exhaustedDay = day;
    return this.serial(async () => {
      await this.update((state) => {
        state.used = Math.max(state.used, this.limit);
      });
      // A block a take() reserved meanwhile is void too.
      this.reserve = 0;
      return error;
    });
  }

  async status(): Promise<QuotaStatus> {
    const { day, resetAt } = this.dayOf();
    if (!this.counted) return { used: 0, limit: this.limit, remaining: this.limit, resetAt, day, timeZone: this.timeZone, unknown: 0 };
    // After the updates already asked for (an unknown outcome noted, a reserve taken).
    await this.chain;
    const state = await this.read(day);
    const mine = this.reserveDay === day ? this.reserve : 0;
    const used = Math.max(0, state.used - mine);
    const unknown = (state.unknown ?? 0) + (this.reserveDay === day ? this.unknownPending : 0);
    return { used, limit: this.limit, remaining: Math.max(0, this.limit - used), resetAt, day, timeZone: this.timeZone, unknown };
  }

  /** Returns this process's unused reserve to the shared count. */
  close(): Promise<void> {
    return this.serial(async () => {
      if (this.reserve <= 0 || this.reserveDay !== this.dayOf().day) {
        this.reserve = 0;
        if (this.unknownPending > 0 && this.reserveDay === this.dayOf().day) await this.update(() => undefined);
        return;
      }
      const give = this.reserve;
      this.reserve = 0;
      await this.update((state) => {
        state.used = Math.max(0, state.used - give);
      });
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async read(day: string): Promise<QuotaFile> {
    const fresh: QuotaFile = {
      version: 1,
      tokenHash: this.hash,
      day,
      timeZone: this.timeZone,
      used: 0,
      limit: this.limit,
      updatedAt: new Date(this.clock.now()).toISOString(),
    };
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fresh;
      throw error;
    }
    const read = parseQuotaText(text);
    if ('problem' in read) throw this.damaged(read.cause instanceof Error ? `${read.problem} (${read.cause.message})` : read.problem, read.cause);
    const parsed = read.fields;
    if (parsed.day !== day) return fresh;
    // Today's file with no count: neither 0 (the cap could be passed) nor full forever (no day ends it).
    if (typeof parsed.used !== 'number' || !Number.isInteger(parsed.used) || parsed.used < 0) throw this.damaged(`"used" is ${JSON.stringify(parsed.used) ?? 'missing'}, not a count`);
    return { ...fresh, used: parsed.used, ...(typeof parsed.unknown === 'number' && parsed.unknown > 0 ? { unknown: parsed.unknown } : {}) };
  }

  /** The file holds no count quotelake can trust: exit 2 naming it, until it is removed. */
  private damaged(why: string, cause?: unknown): ConfigError {
    return new ConfigError(
      `quota file is damaged: ${why}; today's request count cannot be read`,
      { file: this.file },
      cause,
      'remove the file: today\'s count then restarts from 0 on this machine (the service\'s own count still stops the day at the plan\'s limit); "quotelake quota" lists the files',
    );
  }

  /**
   * Temp files of this count whose writer was killed before its rename (a SIGKILL mid-write): only
   * a holder of the lock writes one, and we hold it, so any left is debris. Once per process.
   */
  private async sweepTempFiles(): Promise<void> {
    this.swept = true;
    const prefix = `.${basename(this.file)}${TEMP_MARKER}`;
    const lockName = `${basename(this.file)}.lock`;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (name.startsWith(prefix)) await rm(join(this.dir, name), { force: true });
      else if (isLockMaking(name, lockName)) await this.sweepLockMaking(join(this.dir, name));
    }
  }

  /** A lock file another process is making now is young: only one a killed maker left goes. */
  private async sweepLockMaking(path: string): Promise<void> {
    const made = await stat(path).catch(() => undefined);
    if (made !== undefined && Date.now() - made.mtimeMs > MAKING_STALE_MS) await rm(path, { force: true });
  }

  /** Read-modify-write under the cross-process lock. */
  private async update(change: (state: QuotaFile) => void): Promise<void> {
    await makeDir(this.dir);
    const lockfile = await loadLockfile();
    const release = await lockfile.lock(this.file, {
      realpath: false,
      fs: lockFs,
      stale: LOCK_STALE_MS,
      retries: { retries: 200, minTimeout: 2, maxTimeout: 50, factor: 1.5 },
    });
    try {
      if (!this.swept) await this.sweepTempFiles();
      const { day } = this.dayOf();
      const state = await this.read(day);
      change(state);
      // Lost answers belong to the day of the reservation they were taken from (none across midnight).
      if (this.unknownPending > 0 && this.reserveDay === day) state.unknown = (state.unknown ?? 0) + this.unknownPending;
      this.unknownPending = 0;
      state.updatedAt = new Date(this.clock.now()).toISOString();
      // Under the lock, so atomicity is what matters; an fsync per reservation would cost more than it saves.
      await writeFileAtomic(this.file, `${JSON.stringify(state)}\n`, { durable: false });
    } finally {
      await release();
    }
  }
}
