/**
 * One line per distinct message per window: a queue whose Redis is down for an hour reported each
 * reconnection attempt, two lines a second, and buried what else the log said. The first line of a
 * message goes out at once; repeats within the window are counted and said with the next line of
 * that message after the window.
 */
export interface RepeatDamper {
  /** The line to write for `message` now, or undefined when it is a repeat to count. */
  (message: string): string | undefined;
}

export function repeatDamper(nowMs: () => number, windowMs = 60_000): RepeatDamper {
  const seen = new Map<string, { saidAt: number; repeats: number }>();
  return (message) => {
    const now = nowMs();
    const last = seen.get(message);
    if (last !== undefined && now - last.saidAt < windowMs) {
      last.repeats++;
      return undefined;
    }
    // Messages quiet for a window are forgotten: the map holds only what is being repeated.
    for (const [key, entry] of seen) if (now - entry.saidAt >= windowMs) seen.delete(key);
    seen.set(message, { saidAt: now, repeats: 0 });
    const repeats = last?.repeats ?? 0;
    return repeats === 0 ? message : `${message} (${repeats} more time${repeats === 1 ? '' : 's'} in the last ${Math.round((now - last!.saidAt) / 1000)} s)`;
  };
}
