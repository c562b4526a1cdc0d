/**
 * The one source of "now" for the emulator, the rate limiter and the runtime, so tests can drive
 * time instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Present on a virtual clock, one that only moves when told (tests, dry runs, an emulator whose
   * time is driven): waits on it move it here instead of waiting on real timers, the client lets
   * the wire settle before it moves, and the emulator exposes its admin clock endpoint. A clock
   * without it is real time. Any object with `now` and `set` works the same as ManualClock.
   */
  set?(to: number): void;
  /**
   * The instant a command was told to take as now (`--clock`), on a clock that then runs on from
   * it: spans such as `3d` count back from it, so a pinned run covers the same bars however long
   * it took to start. Absent on real time and on virtual clocks.
   */
  readonly origin?: number;
}

/** A clock that only moves when told (see `Clock.set`). */
export type VirtualClock = Clock & { set(to: number): void };

/** True for a virtual clock: what callers ask instead of `instanceof ManualClock`. */
export function isVirtualClock(clock: Clock | undefined): clock is VirtualClock {
  return typeof clock?.set === 'function';
}

export const systemClock: Clock = { now: () => Date.now() };

/** What spans such as `3d` or `12h` count back from: the pinned instant of `--clock`, else now. */
export function spanAnchor(clock: Clock): number {
  return clock.origin ?? clock.now();
}

/**
 * `clock` with its spans pinned to `at` (unless `--clock` pinned them already): every part of one
 * run (the source's `since 7d`, the coverage report that checks it afterwards) then reads the same
 * window, however long the run took to start.
 */
export function anchoredAt(clock: Clock, at: number): Clock {
  if (clock.origin !== undefined) return clock;
  const set = clock.set;
  return { now: () => clock.now(), ...(set !== undefined ? { set: (to: number) => set.call(clock, to) } : {}), origin: at };
}

/**
 * Real time moved to start at `start`: it runs at the machine's pace, so limits and timeouts
 * behave as usual, while dates (what "3 days back" and "today's quota" mean) are those of `start`;
 * spans count back from `start` itself (`origin`).
 */
export function shiftedClock(start: number, base: Clock = systemClock): Clock {
  const offset = start - base.now();
  return { now: () => base.now() + offset, origin: start };
}

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: number | Date | string) {
    this.current = typeof start === 'number' ? start : new Date(start).getTime();
    if (!Number.isFinite(this.current)) throw new RangeError(`invalid clock start: ${String(start)}`);
  }
  now(): number {
    return this.current;
  }
  set(to: number | Date | string): void {
    const next = typeof to === 'number' ? to : new Date(to).getTime();
    if (!Number.isFinite(next)) throw new RangeError(`invalid clock time: ${String(to)}`);
    this.current = next;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
