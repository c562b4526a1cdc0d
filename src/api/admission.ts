/**
 * The seam between the client and whatever decides when a request may go: the sliding windows
 * (LimiterPort) and the daily count (QuotaPort). In one process they are SlidingWindowLimiter and
 * QuotaStore, unchanged; across processes and hosts a Coordinator (Redis, src/api/redis/) provides
 * both from shared state. The client sees no difference: it asks the quota, then waits for a permit,
 * releases the permit when the answer arrives, and gives the request back when it was never counted.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/component.js';
import type { PlanLimits } from './plans.js';
import type { QuotaExhaustedError } from '../core/errors.js';
import type { QuotaStatus } from './quota-store.js';
import type { Permit, WindowRule } from './rate-limiter.js';
import type { Sleep } from './sleep.js';

/** What the client needs of a limiter (SlidingWindowLimiter has exactly this). */
export interface LimiterPort {
  acquire(rules: readonly WindowRule[], signal?: AbortSignal): Promise<Permit>;
  /** Admit nobody before `until` (clock ms): the service still answered 429. */
  pauseUntil(until: number): void;
  /** Fail every waiting request with `error` (the day is used up). */
  failWaiting(error: unknown): void;
  /** Admitted by this process and not yet released. */
  readonly inFlight: number;
}

/** What the client needs of the daily count (QuotaStore has exactly this). */
export interface QuotaPort {
  precheck(): Promise<void>;
  take(): Promise<void>;
  refund(): void;
  noteUnknown(): void;
  markExhausted(cause?: unknown): Promise<QuotaExhaustedError>;
  closedByService(): QuotaExhaustedError | undefined;
  status(): Promise<QuotaStatus>;
  dayOf(at?: number): { day: string; resetAt: Date };
  close(): Promise<void>;
}

/** What a coordinator is told about one client: never the token, only its hash. */
export interface AdmissionContext {
  /** tokenHash16(token). */
  readonly tokenHash: string;
  readonly limits: PlanLimits;
  readonly clock: Clock;
  /** The client's clock is virtual (tests): the coordinator takes its time from it, not from its own. */
  readonly virtualClock: boolean;
  readonly sleep: Sleep;
  readonly marginMs: number;
  readonly maxInFlight: number;
  /** Zone whose midnight resets the daily count (L4). */
  readonly timeZone: string;
  /** Longest a request can take (connect + headers + body timeouts): a holder's slot expires after it. */
  readonly requestTimeoutMs: number;
  readonly logger?: Logger | undefined;
}

export interface Admission {
  readonly limiter: LimiterPort;
  readonly quota: QuotaPort;
}

/** Shares one token's limits and daily count between processes. Owned by its creator (the CLI), which closes it. */
export interface Coordinator {
  /** Where it is, for messages (no password). */
  readonly target: string;
  admission(context: AdmissionContext): Admission;
  close(): Promise<void>;
}
