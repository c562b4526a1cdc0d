// Figures of a request phase from the proxy's log: the rate over the phase (first request in to
// last answer out), the plan utilisation (admitted / (limit x duration)), the most requests
// admitted in any sliding window, and the rejections (ret 429 or HTTP 429).
//
// Where a shortfall comes from: with N slots per window, admission i + N reuses the slot of
// admission i, so its "slot cycle" arrival[i + N] - arrival[i] would be exactly the window if
// nothing were lost. The cycle splits into the window, the answer's latency as the proxy saw it
// (arrival to end: the client holds the slot until the answer's headers, by design, so the
// service's own stamps can never fill a window early) and the rest: the client admitting the
// next request late (its event loop busy, or no request waiting).
export function requestRate(log, limitPerSecond, windowMs = 1000) {
  if (log.length === 0) return { requests: 0, admitted: 0, rejected: 0, seconds: 0, perSecond: 0, utilisation: 0, maxInWindow: 0, cycleMs: NaN, latencyMs: NaN, lateMs: NaN };
  const rejectedOf = (e) => e.ret === 429 || e.status === 429;
  const admittedLog = log.filter((e) => !rejectedOf(e)).sort((a, b) => a.arrivedMs - b.arrivedMs);
  const admittedTimes = admittedLog.map((e) => e.arrivedMs);
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
  let cycle = 0;
  let latency = 0;
  const cycles = admitted - limitPerSecond;
  for (let i = 0; i < cycles; i++) {
    cycle += admittedTimes[i + limitPerSecond] - admittedTimes[i];
    latency += admittedLog[i].endedMs - admittedLog[i].arrivedMs;
  }
  const cycleMs = cycles > 0 ? cycle / cycles : NaN;
  const latencyMs = cycles > 0 ? latency / cycles : NaN;
  return {
    cycleMs,
    latencyMs,
    lateMs: cycleMs - windowMs - latencyMs,
    requests: log.length,
    admitted,
    rejected: log.length - admitted,
    seconds,
    perSecond: admitted / seconds,
    utilisation: admitted / (limitPerSecond * seconds),
    maxInWindow,
  };
}
