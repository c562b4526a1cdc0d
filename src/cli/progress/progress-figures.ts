/** What progress shows, computed the same way for bars and for plain lines. */
import type { RunEventsRecorder } from '../../runtime/run-events.js';

export interface QuotaBaseline {
  /** Requests of today's quota used before this run started. */
  readonly usedAtStart: number;
  readonly limit: number;
}

export interface ProgressFigures {
  readonly requests: number;
  /** Requests the sources planned (0 while unknown). */
  readonly planned: number;
  readonly rows: Readonly<Record<string, { received: number; written: number; rejected: number }>>;
  /** Requests per second since the start. */
  readonly rate: number;
  /** Seconds left at the current rate, when it can be told. */
  readonly etaSeconds: number | undefined;
  readonly quotaUsed: number | undefined;
  readonly quotaLimit: number | undefined;
}

export function progressFigures(events: RunEventsRecorder, startedAt: number, now: number, quota: QuotaBaseline | undefined): ProgressFigures {
  const snap = events.snapshot();
  const requests = Object.values(snap.requests).reduce((a, b) => a + b, 0);
  const planned = Object.values(snap.planned).reduce((a, b) => a + b, 0);
  const seconds = Math.max(0.001, (now - startedAt) / 1000);
  const rate = requests / seconds;
  const left = planned - requests;
  const etaSeconds = planned > 0 && rate > 0 && requests > 0 ? Math.max(0, left / rate) : undefined;
  return {
    requests,
    planned,
    rows: snap.rows,
    rate,
    etaSeconds,
    quotaUsed: quota ? quota.usedAtStart + requests : undefined,
    quotaLimit: quota?.limit,
  };
}

const fmt = new Intl.NumberFormat('en-US');
export const n = (v: number): string => fmt.format(Math.round(v));

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One plain progress line (no ANSI), for logs and pipes. */
export function progressLine(label: string, f: ProgressFigures): string {
  const parts: string[] = [];
  parts.push(f.planned > 0 ? `${n(f.requests)}/${n(f.planned)} requests (${Math.min(100, Math.floor((f.requests / f.planned) * 100))}%)` : `${n(f.requests)} requests`);
  const rows = Object.entries(f.rows).map(([d, c]) => `${d} ${n(c.received)} rows`);
  if (rows.length > 0) parts.push(rows.join(', '));
  parts.push(`${f.rate.toFixed(1)} req/s`);
  if (f.etaSeconds !== undefined) parts.push(`ETA ${formatDuration(f.etaSeconds)}`);
  if (f.quotaUsed !== undefined && f.quotaLimit !== undefined) parts.push(`quota ${n(f.quotaUsed)}/${n(f.quotaLimit)}`);
  return `quotelake: ${label}: ${parts.join(', ')}`;
}
