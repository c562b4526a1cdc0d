/**
 * A reference model of the sliding-window rule ("at most `limit` admissions in any window of
 * `windowMs`"), written independently of the limiter, the planner and the emulator so tests can
 * check all three against it.
 */
export interface WindowRuleLike {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The fastest schedule the rules allow for `n` requests issued at once (the greedy one): request i
 * waits until the request `limit` places before it has left every window. Returns the offset (ms) of
 * the last admission, 0 for none.
 */
export function theoreticalLastAdmission(n: number, rules: readonly WindowRuleLike[]): number {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    let at = 0;
    for (const r of rules) if (i >= r.limit) at = Math.max(at, t[i - r.limit]! + r.windowMs);
    t.push(at);
  }
  return t[n - 1] ?? 0;
}

/** How many admissions (offsets, ms) found `limit` or more earlier ones in the window (t - windowMs, t]. */
export function windowViolations(times: readonly number[], limit: number, windowMs: number): number {
  let bad = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (times.slice(0, i).filter((s) => s > t - windowMs && s <= t).length >= limit) bad++;
  }
  return bad;
}
