import { type FaultSpec } from './fault-spec.js';
import { mulberry32 } from '../random/index.js';

/** How a Retry-After header is written: delta-seconds, or an HTTP-date this far from now (may be past). */
export type RetryAfter = { form: 'seconds'; seconds: number } | { form: 'date'; offsetMs: number };

/** What happens to one request. `kind` is the fault that replaces the answer, if any. */
export interface FaultDecision {
  kind: 'none' | 'drop' | '5xx' | '504' | 'truncate' | '429' | '429-untraced' | 'halt-busy';
  /** 502 or 503 when kind is '5xx'. */
  status: 502 | 503;
  /** Extra delay before answering (real timers: this is about transport). */
  latencyMs: number;
  /** Pause between body chunks; 0 = write at once. */
  dripMs: number;
  /** For '429-untraced': leave the trace field out, or send it empty. */
  untraced: 'absent' | 'empty';
  /** A Retry-After header for a 429, 503 or busy answer; undefined = none. */
  retryAfter: RetryAfter | undefined;
}

export const NO_FAULT: FaultDecision = Object.freeze({
  kind: 'none',
  status: 502,
  latencyMs: 0,
  dripMs: 0,
  untraced: 'absent',
  retryAfter: undefined,
});

/** The Retry-After forms drawn: 0, 1 or 2 seconds; a date 30 s past, now, 2 s ahead. */
const RETRY_AFTER: readonly RetryAfter[] = [
  { form: 'seconds', seconds: 0 },
  { form: 'seconds', seconds: 1 },
  { form: 'seconds', seconds: 2 },
  { form: 'date', offsetMs: -30_000 },
  { form: 'date', offsetMs: 0 },
  { form: 'date', offsetMs: 2000 },
];

/**
 * Draws a fixed number of values per request (in arrival order), so a given seed and request order
 * always produce the same faults, whatever the spec's rates. The faults added later (504, untraced
 * 429, halt-busy, Retry-After) draw from a second stream, so the first stream, and with it every
 * older spec's sequence for a seed, is unchanged.
 */
export class FaultInjector {
  private readonly next: () => number;
  private readonly nextExtra: () => number;
  constructor(
    readonly spec: FaultSpec,
    seed: number,
  ) {
    this.next = mulberry32(seed);
    this.nextExtra = mulberry32((seed ^ 0x5bd1e995) >>> 0);
  }

  decide(): FaultDecision {
    const u = [this.next(), this.next(), this.next(), this.next(), this.next(), this.next(), this.next()] as const;
    const v = [this.nextExtra(), this.nextExtra(), this.nextExtra(), this.nextExtra(), this.nextExtra(), this.nextExtra()] as const;
    const s = this.spec;
    const latencyMs = u[4] < s.latency.rate ? s.latency.ms : 0;
    let kind: FaultDecision['kind'] = 'none';
    if (u[0] < s.drop) kind = 'drop';
    else if (u[1] < s.http5xx) kind = '5xx';
    else if (u[2] < s.truncate) kind = 'truncate';
    else if (u[3] < s.spurious429) kind = '429';
    else if (v[0] < s.http504) kind = '504';
    else if (v[1] < s.untraced429) kind = '429-untraced';
    else if (v[2] < s.haltBusy) kind = 'halt-busy';
    const dripMs = kind === 'none' && u[5] < s.drip.rate ? s.drip.ms : 0;
    const status = u[6] < 0.5 ? 502 : 503;
    const retryable = kind === '429' || kind === '429-untraced' || kind === 'halt-busy' || (kind === '5xx' && status === 503);
    const retryAfter = retryable && v[3] < s.retryAfter ? RETRY_AFTER[Math.floor(v[4] * RETRY_AFTER.length)] : undefined;
    return { kind, status, latencyMs, dripMs, untraced: v[5] < 0.5 ? 'absent' : 'empty', retryAfter };
  }
}

/** The header value at `nowMs` (HTTP-date is IMF-fixdate, whole seconds). */
export function retryAfterValue(r: RetryAfter, nowMs: number): string {
  return r.form === 'seconds' ? String(r.seconds) : new Date(nowMs + r.offsetMs).toUTCString();
}
