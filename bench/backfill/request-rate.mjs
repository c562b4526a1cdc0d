// Figures of a request phase from the proxy's log: the rate over the phase (first request in to
// last answer out), the plan utilisation (admitted / (limit x duration)), the most requests
// admitted in any sliding window, and the rejections (ret 429 or HTTP 429).
export function requestRate(log, limitPerSecond, windowMs = 1000) {
  if (log.length === 0) return { requests: 0, admitted: 0, rejected: 0, seconds: 0, perSecond: 0, utilisation: 0, maxInWindow: 0 };
  const rejectedOf = (e) => e.ret === 429 || e.status === 429;
  const admittedTimes = log.filter((e) => !rejectedOf(e)).map((e) => e.arrivedMs).sort((a, b) => a - b);
  const first = Math.min(...log.map((e) => e.arrivedMs));
  const last = Math.max(...log.map((e) => e.endedMs));
  const seconds = (last - first) / 1000;
  // Two pointers over the sorted arrivals: the most that fall in any [t, t + windowMs).
  let maxInWindow = 0;
  for (let i = 0, j = 0; j < admittedTimes.length; j++) {
    while (admittedTimes[j] - admittedTimes[i] >= windowMs) i++;
    maxInWindow = Math.max(maxInWindow, j - i + 1);
  }
  const admitted = admittedTimes.length;
  return {
    requests: log.length,
    admitted,
    rejected: log.length - admitted,
    seconds,
    perSecond: admitted / seconds,
    utilisation: admitted / (limitPerSecond * seconds),
    maxInWindow,
  };
}
