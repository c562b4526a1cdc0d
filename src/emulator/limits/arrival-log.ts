/**
 * Each token's admitted arrival instants and its refusals, as the limits saw them: what a benchmark
 * or test reads to measure a plan's use at the service itself (`GET /_emulator/arrivals`), with no
 * proxy in the path adding its own hops. Kept only on a test clock; bounded (the oldest instants
 * are dropped past MAX_ARRIVALS, and said so).
 */
export const MAX_ARRIVALS = 1_000_000;

export interface ArrivalView {
  /** Clock ms of every admitted request still kept, in arrival order. */
  readonly admitted: readonly number[];
  /** Admitted instants dropped to stay within MAX_ARRIVALS. */
  readonly dropped: number;
  /** Requests the limits refused (answered 429), by reason. */
  readonly refused: { readonly rate: number; readonly daily: number };
}

interface Entry {
  admitted: number[];
  dropped: number;
  refused: { rate: number; daily: number };
}

export class ArrivalLog {
  private readonly tokens = new Map<string, Entry>();

  private entry(token: string): Entry {
    let e = this.tokens.get(token);
    if (!e) {
      e = { admitted: [], dropped: 0, refused: { rate: 0, daily: 0 } };
      this.tokens.set(token, e);
    }
    return e;
  }

  admitted(token: string, t: number): void {
    const e = this.entry(token);
    if (e.admitted.length >= MAX_ARRIVALS) {
      // Drop the older half at once: amortised O(1) per arrival.
      const cut = MAX_ARRIVALS / 2;
      e.admitted.splice(0, cut);
      e.dropped += cut;
    }
    e.admitted.push(t);
  }

  refused(token: string, reason: 'rate' | 'daily'): void {
    this.entry(token).refused[reason]++;
  }

  view(token: string): ArrivalView | undefined {
    const e = this.tokens.get(token);
    return e && { admitted: [...e.admitted], dropped: e.dropped, refused: { ...e.refused } };
  }
}
