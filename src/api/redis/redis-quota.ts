/**
 * The daily count of one token, shared through Redis (QuotaPort). The charge itself happens in the
 * admission script (redis-limiter.ts), in the same atomic step as the windows: take() only checks
 * that the day is still open. This side keeps what this process charged today (`own`), which each
 * admission sends along so a Redis that lost the count gets it back (see redis-scripts.ts).
 */
import { randomBytes } from 'node:crypto';
import { QuotaExhaustedError } from '../../core/errors.js';
import type { AdmissionContext, QuotaPort } from '../admission.js';
import { QuotaDay } from '../quota-day.js';
import type { QuotaStatus } from '../quota-store.js';
import type { RedisLink } from './redis-link.js';
import type { TokenKeys } from './redis-keys.js';

const DAY_MS = 86_400_000;

/** The day's part of one admission. */
export interface DayArgs {
  readonly day: string;
  readonly key: string;
  /** -1: no daily cap. */
  readonly limit: number;
  readonly field: string;
  readonly own: number;
  readonly ttlMs: number;
  readonly zone: string;
  readonly resetMs: number;
}

export class RedisQuota implements QuotaPort {
  readonly limit: number;
  /** This process's field in the day hash. */
  readonly field = `p:${randomBytes(6).toString('hex')}`;
  private readonly days: QuotaDay;
  private own = 0;
  private ownDay = '';
  /** Rejected admissions: their refund() gives back nothing, as nothing was charged. */
  private uncharged = 0;
  private unknown = 0;
  private exhaustedDay = '';
  private closed: { day: string; error: QuotaExhaustedError } | undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: TokenKeys,
    private readonly context: AdmissionContext,
  ) {
    this.limit = context.limits.perDay;
    this.days = new QuotaDay(context.timeZone);
  }

  get counted(): boolean {
    return Number.isFinite(this.limit);
  }

  dayOf(at: number = this.context.clock.now()): { day: string; resetAt: Date } {
    return this.days.at(at);
  }

  /** For the admission script, as of now. */
  dayArgs(): DayArgs {
    const now = this.context.clock.now();
    const { day, resetAt } = this.dayOf(now);
    if (this.ownDay !== day) {
      this.ownDay = day;
      this.own = 0;
      this.unknown = 0;
    }
    return {
      day,
      key: this.keys.day(day),
      limit: this.counted ? this.limit : -1,
      field: this.field,
      own: this.own,
      // Kept a day past its midnight, so a late `quota` still shows yesterday's total.
      ttlMs: Math.max(1000, resetAt.getTime() - now + DAY_MS),
      zone: this.context.timeZone,
      resetMs: resetAt.getTime(),
    };
  }

  /** The script admitted and charged one request on `day`. */
  charged(day: string): void {
    if (day === this.ownDay) this.own++;
  }

  /** An acquire() failed before anything was charged (the client calls refund() for it next). */
  notCharged(): void {
    this.uncharged++;
  }

  /** The script found the day used up: the error to throw. */
  usedUp(day: string, used: number): QuotaExhaustedError {
    this.exhaustedDay = day;
    return new QuotaExhaustedError({ resetAt: this.dayOf().resetAt, used, limit: this.limit });
  }

  async precheck(): Promise<void> {
    const closed = this.closedByService();
    if (closed) throw closed;
    if (!this.counted) return;
    const { day, resetAt } = this.dayOf();
    if (this.exhaustedDay !== day) return;
    // Found used up before: ask again (another process may have given some back) before waiting.
    const used = Number((await this.link.hgetall(this.keys.day(day))).used ?? 0);
    if (used >= this.limit) throw new QuotaExhaustedError({ resetAt, used, limit: this.limit });
    this.exhaustedDay = '';
  }

  take(): Promise<void> {
    const closed = this.closedByService();
    return closed ? Promise.reject(closed) : Promise.resolve();
  }

  refund(): void {
    if (this.uncharged > 0) {
      this.uncharged--;
      return;
    }
    if (!this.counted) return;
    const args = this.dayArgs();
    if (this.closed?.day === args.day || this.own <= 0) return;
    this.own--;
    // Fire and forget: a refund that is lost leaves the count one too high, never too low.
    this.link.day(args.key, ['refund', args.field, args.limit, args.ttlMs]).catch(() => undefined);
  }

  noteUnknown(): void {
    if (!this.counted) return;
    const args = this.dayArgs();
    this.unknown++;
    this.link.day(args.key, ['unknown', args.field, args.limit, args.ttlMs]).catch(() => undefined);
  }

  closedByService(): QuotaExhaustedError | undefined {
    return this.closed !== undefined && this.closed.day === this.dayOf().day ? this.closed.error : undefined;
  }

  async markExhausted(cause?: unknown): Promise<QuotaExhaustedError> {
    const { day, resetAt } = this.dayOf();
    if (this.closed?.day !== day) {
      const limit = this.counted ? this.limit : 0;
      this.closed = { day, error: new QuotaExhaustedError({ resetAt, used: limit, limit, cause }) };
    }
    this.exhaustedDay = day;
    // Every process learns it from the count: the service's word beats ours.
    if (this.counted) {
      const args = this.dayArgs();
      await this.link.day(args.key, ['exhausted', args.field, args.limit, args.ttlMs]).catch(() => undefined);
    }
    return this.closed!.error;
  }

  async status(): Promise<QuotaStatus> {
    const { day, resetAt } = this.dayOf();
    const base = { limit: this.limit, resetAt, day, timeZone: this.context.timeZone };
    if (!this.counted) return { ...base, used: 0, remaining: this.limit, unknown: 0 };
    const hash = await this.link.hgetall(this.keys.day(day));
    // A count lost with Redis and not yet rebuilt is at least ours.
    const used = Math.max(Number(hash.used ?? 0), this.ownDay === day ? this.own : 0);
    const unknown = Math.max(Number(hash.unknown ?? 0), this.ownDay === day ? this.unknown : 0);
    return { ...base, used, remaining: Math.max(0, this.limit - used), unknown };
  }

  /** Called by close(): the limiter's release listener (set by the coordinator). */
  onClose: (() => void) | undefined;

  async close(): Promise<void> {
    // Nothing reserved ahead: every charge was made at its admission. Only the listener goes.
    this.onClose?.();
    this.onClose = undefined;
  }
}
