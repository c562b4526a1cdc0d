/**
 * The share of a plan that a run of admitted arrivals used: the least time the plan lets N arrivals
 * take, over the time they took (first arrival to last).
 *
 * At most `limit` arrivals in any sliding window: the fastest N arrivals can come is in bursts of
 * `limit` one window apart, so the last comes floor((N - 1) / limit) windows after the first. 1.0
 * means no request could have come sooner. Unlike (N - limit) / span / limit (a steady-state rate
 * that assumes a full burst at each end), it is unbiased whether arrivals come in bursts or evenly,
 * and whatever share of its last window the work happened to fill: that formula scores a perfect
 * limiter 0.987 over 76 windows when the work ends one request into a window.
 */
export function planUtilisation(times, limit, windowMs = 1000) {
  const sorted = [...times].sort((a, b) => a - b);
  const n = sorted.length;
  // All of it fits in one window: the plan never bound the run, there is nothing to measure.
  if (n <= limit) return Number.NaN;
  const least = Math.floor((n - 1) / limit) * windowMs;
  return least / (sorted[n - 1] - sorted[0]);
}
