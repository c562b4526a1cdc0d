/** The newest bar of each K-line series a lake holds, from the manifests' key ranges (no file is read). */
import type { HeldFile } from '../../core/definition.js';
import { INTERVALS, type Interval } from '../../core/records.js';
import { klineStream } from './kline-records.js';

/** The newest bar open (Unix seconds) per kline stream (`kline/<code>/<interval>`) the files hold. */
export function newestHeldBars(files: readonly HeldFile[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of files) {
    const interval = /^interval=([^/]+)\//.exec(file.path)?.[1];
    if (interval === undefined || !(INTERVALS as readonly string[]).includes(interval)) continue;
    for (const [code, range] of Object.entries(file.ranges)) {
      const ms = Number(range[1]);
      if (!Number.isFinite(ms)) continue;
      const stream = klineStream(code, interval as Interval);
      const sec = Math.floor(ms / 1000);
      if (sec > (out.get(stream) ?? Number.NEGATIVE_INFINITY)) out.set(stream, sec);
    }
  }
  return out;
}
