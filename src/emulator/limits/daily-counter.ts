import { DateTime } from 'luxon';

/** Admitted requests per calendar day of `zone`; the day boundary is cached so luxon runs once a day. */
export class DailyCounter {
  private dayStart = Number.POSITIVE_INFINITY;
  private dayEnd = Number.NEGATIVE_INFINITY;
  private date = '';
  private count = 0;

  constructor(
    readonly limit: number,
    readonly zone: string,
  ) {}

  private roll(t: number): void {
    if (t >= this.dayStart && t < this.dayEnd) return;
    const day = DateTime.fromMillis(t, { zone: this.zone }).startOf('day');
    this.dayStart = day.toMillis();
    this.dayEnd = day.plus({ days: 1 }).toMillis();
    this.date = day.toISODate() ?? '';
    this.count = 0;
  }

  allows(t: number): boolean {
    this.roll(t);
    return this.count < this.limit;
  }

  record(t: number): void {
    this.roll(t);
    this.count++;
  }

  snapshot(t: number): { date: string; used: number; limit: number; resetAt: string } {
    this.roll(t);
    return { date: this.date, used: this.count, limit: this.limit, resetAt: new Date(this.dayEnd).toISOString() };
  }
}
