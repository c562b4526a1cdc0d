/**
 * "At most `limit` admitted requests with arrival time in (t - windowMs, t]": a ring of the last
 * `limit` admitted arrival times. While time only moves forward the ring is sorted and one look at its
 * oldest entry decides; if a manual clock was set backwards, fall back to counting.
 */
export class SlidingWindow {
  private readonly times: Float64Array;
  private start = 0;
  private size = 0;
  private sorted = true;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.times = new Float64Array(limit);
  }

  /** Admitted requests with arrival in (t - windowMs, t]. */
  used(t: number): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) {
      const at = this.times[(this.start + i) % this.limit]!;
      if (at > t - this.windowMs && at <= t) n++;
    }
    return n;
  }

  allows(t: number): boolean {
    if (this.size < this.limit) return true;
    if (this.sorted) {
      const oldest = this.times[this.start]!;
      if (oldest <= t - this.windowMs) return true;
      const newest = this.times[(this.start + this.size - 1) % this.limit]!;
      if (newest <= t) return false;
    }
    return this.used(t) < this.limit;
  }

  record(t: number): void {
    if (this.size > 0) {
      const newest = this.times[(this.start + this.size - 1) % this.limit]!;
      if (t < newest) this.sorted = false;
    }
    if (this.size < this.limit) {
      this.times[(this.start + this.size) % this.limit] = t;
      this.size++;
    } else {
      this.times[this.start] = t;
      this.start = (this.start + 1) % this.limit;
    }
    if (!this.sorted && this.size === this.limit) this.resort();
  }

  private resort(): void {
    const all = Array.from({ length: this.size }, (_, i) => this.times[(this.start + i) % this.limit]!).sort(
      (a, b) => a - b,
    );
    all.forEach((v, i) => (this.times[i] = v));
    this.start = 0;
    this.sorted = true;
  }
}
