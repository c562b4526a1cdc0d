/**
 * "At most `limit` admitted requests with arrival time in (t - windowMs, t]": a ring of the last
 * `limit` admitted arrival times, kept in time order so one look at the oldest entry decides.
 * If a manual clock is set backwards, admissions after the new "now" are forgotten when the next one
 * is recorded (the timeline was rewound), which keeps the ring sorted and the answer exact.
 */
export class SlidingWindow {
  private readonly times: Float64Array;
  private start = 0;
  private size = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.times = new Float64Array(limit);
  }

  private at(i: number): number {
    return this.times[(this.start + i) % this.limit]!;
  }

  /** Admitted requests with arrival in (t - windowMs, t]. */
  used(t: number): number {
    let n = 0;
    for (let i = this.size - 1; i >= 0; i--) {
      const at = this.at(i);
      if (at <= t - this.windowMs) break;
      if (at <= t) n++;
    }
    return n;
  }

  allows(t: number): boolean {
    if (this.size < this.limit) return true;
    if (this.at(0) <= t - this.windowMs) return true;
    if (this.at(this.size - 1) <= t) return false;
    return this.used(t) < this.limit;
  }

  record(t: number): void {
    while (this.size > 0 && this.at(this.size - 1) > t) this.size--;
    if (this.size < this.limit) {
      this.times[(this.start + this.size) % this.limit] = t;
      this.size++;
    } else {
      this.times[this.start] = t;
      this.start = (this.start + 1) % this.limit;
    }
  }
}
