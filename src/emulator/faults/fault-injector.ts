import { type FaultSpec } from './fault-spec.js';
import { mulberry32 } from './prng.js';

/** What happens to one request. `kind` is the fault that replaces the answer, if any. */
export interface FaultDecision {
  kind: 'none' | 'drop' | '5xx' | 'truncate' | '429';
  /** 502 or 503 when kind is '5xx'. */
  status: 502 | 503;
  /** Extra delay before answering (real timers: this is about transport). */
  latencyMs: number;
  /** Pause between body chunks; 0 = write at once. */
  dripMs: number;
}

export const NO_FAULT: FaultDecision = Object.freeze({ kind: 'none', status: 502, latencyMs: 0, dripMs: 0 });

/**
 * Draws a fixed number of values per request (in arrival order), so a given seed and request order
 * always produce the same faults, whatever the spec's rates.
 */
export class FaultInjector {
  private readonly next: () => number;
  constructor(
    readonly spec: FaultSpec,
    seed: number,
  ) {
    this.next = mulberry32(seed);
  }

  decide(): FaultDecision {
    const u = [this.next(), this.next(), this.next(), this.next(), this.next(), this.next(), this.next()] as const;
    const s = this.spec;
    const latencyMs = u[4] < s.latency.rate ? s.latency.ms : 0;
    let kind: FaultDecision['kind'] = 'none';
    if (u[0] < s.drop) kind = 'drop';
    else if (u[1] < s.http5xx) kind = '5xx';
    else if (u[2] < s.truncate) kind = 'truncate';
    else if (u[3] < s.spurious429) kind = '429';
    const dripMs = kind === 'none' && u[5] < s.drip.rate ? s.drip.ms : 0;
    return { kind, status: u[6] < 0.5 ? 502 : 503, latencyMs, dripMs };
  }
}
