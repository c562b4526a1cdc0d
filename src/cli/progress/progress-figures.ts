/** What progress shows, computed the same way for bars and for plain lines. */
import { groupedCount } from '../../core/grouped-count.js';
import type { RunEventsRecorder, RunEventsSnapshot } from '../../runtime/run-events.js';

export interface QuotaBaseline {
  /** Requests of today's quota used before this run started. */
  readonly usedAtStart: number;
  readonly limit: number;
  /** Requests this run sent that the service did not charge (refused with 429), so far. */
  readonly uncharged?: () => number;
  /** When the quota day of `usedAtStart` ends (clock ms): past it, the count starts again from 0. */
  readonly resetAtMs?: number;
  /** Set by the first figures past `resetAtMs`: this run's charged requests then, and the next reset. */
  turn?: { charged: number; nextResetMs: number };
}

/** The next quota day's reset, a day on: close enough for a figure shown (a DST day is 23 or 25 h). */
const DAY_MS = 86_400_000;

/**
 * Requests of today's quota used so far: before the reset instant, what was used before the run
 * plus what it charged since; past it (a run across midnight), what it charged since the first
 * figures of the new day (requests between midnight and those go to the day before).
 */
function quotaUsedNow(quota: QuotaBaseline, requests: number, now: number): number {
  const charged = requests - (quota.uncharged?.() ?? 0);
  if (quota.resetAtMs === undefined) return quota.usedAtStart + charged;
  const resetAt = quota.turn?.nextResetMs ?? quota.resetAtMs;
  if (now >= resetAt) quota.turn = { charged, nextResetMs: resetAt + DAY_MS * Math.max(1, Math.ceil((now - resetAt + 1) / DAY_MS)) };
  return quota.turn === undefined ? quota.usedAtStart + charged : charged - quota.turn.charged;
}

export interface ProgressFigures {
  /** Requests sent: the same count the run summary gives. */
  readonly requests: number;
  /**
   * Requests the sources planned (0 while unknown), never below what was sent: a stream counts
   * at least its requests, and requests no stream claimed count as planned too.
   */
  readonly planned: number;
  /**
   * Of `requests`, those the service refused with 429 `rate limit`: sent, but they moved nothing
   * on (each goes again), so the percentage, the bars and the ETA leave them out.
   */
  readonly refused: number;
  readonly rows: Readonly<Record<string, { received: number; written: number; merged?: number; rejected: number }>>;
  /** Requests per second since the start. */
  readonly rate: number;
  /** Seconds left at the rate of requests that were not refused, when it can be told. */
  readonly etaSeconds: number | undefined;
  readonly quotaUsed: number | undefined;
  readonly quotaLimit: number | undefined;
  /** One entry per stream the run planned or reported, in stream-key order. */
  readonly streams: readonly StreamFigures[];
  /** Streams with requests planned that their source called done (the line's "N/M streams done"). */
  readonly streamsDone: number;
  /** The run ended having sent everything it meant to. */
  readonly finished: boolean;
  /** The run ended before that (interrupted, failed, quota): nothing more is coming, so no ETA. */
  readonly stopped: boolean;
}

/** One stream's share of the run: its requests of planned, rows received, rate and ETA. */
export interface StreamFigures {
  readonly stream: string;
  /** Short name for a bar: `kline/BTCUSDT/1m` → `BTCUSDT 1m`, `halt/nyse` → `halt nyse`. */
  readonly label: string;
  readonly requests: number;
  /**
   * Requests planned for this stream (0 when the source planned none under this key), never below
   * `requests`: the sources re-plan when the service gives less per request than planned.
   */
  readonly planned: number;
  /**
   * Of `requests`, those that moved the stream on (not refused with 429): refusals are not told
   * per stream, so the run's share of them is taken off each stream alike (a 429 holds every
   * stream's requests, so they come to all streams alike).
   */
  readonly progressed: number;
  readonly rows: number;
  readonly rate: number;
  readonly etaSeconds: number | undefined;
  readonly done: boolean;
}

export function streamLabel(stream: string): string {
  const parts = stream.split('/').filter((p) => p !== '');
  if (parts[0] === 'kline' && parts.length > 1) parts.shift();
  return parts.join(' ') || stream;
}

/**
 * Seconds until `planned` is sent, at the rate of the requests that moved the run on (`progressed`
 * of `requests` in `seconds`): while the service refuses every request, nothing tells when it ends.
 */
function etaOf(requests: number, progressed: number, planned: number, seconds: number): number | undefined {
  const rate = progressed / seconds;
  return planned > 0 && rate > 0 ? Math.max(0, (planned - requests) / rate) : undefined;
}

/** Done of planned, leaving out requests that were refused (they are in both and moved nothing on). */
export function doneShare(requests: number, progressed: number, planned: number): number {
  const wanted = planned - (requests - progressed);
  return wanted > 0 ? Math.min(1, progressed / wanted) : 0;
}

/**
 * `finished`: the run ended having sent everything it meant to, so every stream it planned or
 * sent for is done at what it sent, whatever the plan guessed.
 */
export function streamFigures(
  snap: Pick<RunEventsSnapshot, 'planned' | 'requestsByStream' | 'rowsByStream' | 'doneStreams'>,
  seconds: number,
  finished = false,
  /** Share of the run's requests that were not refused with 429 (1 when none were). */
  progressedShare = 1,
): StreamFigures[] {
  const keys = new Set([...Object.keys(snap.planned), ...Object.keys(snap.requestsByStream), ...Object.keys(snap.rowsByStream)]);
  const called = new Set(snap.doneStreams);
  return [...keys].sort().map((stream) => {
    const requests = snap.requestsByStream[stream] ?? 0;
    const asked = snap.planned[stream] ?? 0;
    const planned = finished && (asked > 0 || requests > 0) ? requests : asked > 0 ? Math.max(asked, requests) : 0;
    const rate = requests / seconds;
    const progressed = progressedShare >= 1 ? requests : Math.round(requests * progressedShare);
    // Done when the source says so: all requests sent is not enough (pages asked for ahead may be
    // unanswered, a refused one may go again, a stop may come before their rows are handed over).
    const done = finished ? planned > 0 || asked > 0 : called.has(stream);
    return {
      stream,
      label: streamLabel(stream),
      requests,
      planned,
      progressed,
      rows: snap.rowsByStream[stream] ?? 0,
      rate,
      etaSeconds: done ? undefined : etaOf(requests, progressed, planned, seconds),
      done,
    };
  });
}

/** What a terminal shows when there are more streams than lines to spare. */
export interface VisibleStreams {
  readonly shown: readonly StreamFigures[];
  /** The rest, summed into one line (count 0 when everything is shown). */
  readonly hidden: { readonly count: number; readonly done: number; readonly requests: number; readonly planned: number; readonly rows: number };
}

export const MAX_STREAM_BARS = 12;

/**
 * Picks at most `max` streams: unfinished ones with requests first (most requests first), then
 * unfinished ones not started, then finished ones; the pick is shown in stream-key order so bars do
 * not jump around between refreshes.
 */
export function visibleStreams(streams: readonly StreamFigures[], max = MAX_STREAM_BARS): VisibleStreams {
  if (streams.length <= max) return { shown: streams, hidden: { count: 0, done: 0, requests: 0, planned: 0, rows: 0 } };
  const rank = (s: StreamFigures): number => (s.done ? 2 : s.requests > 0 || s.rows > 0 ? 0 : 1);
  const ordered = [...streams].sort((a, b) => rank(a) - rank(b) || b.requests - a.requests || (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  const keep = Math.max(0, max - 1);
  const shown = ordered.slice(0, keep).sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  const rest = ordered.slice(keep);
  return {
    shown,
    hidden: {
      count: rest.length,
      done: rest.filter((s) => s.done).length,
      requests: rest.reduce((a, s) => a + s.requests, 0),
      planned: rest.reduce((a, s) => a + s.planned, 0),
      rows: rest.reduce((a, s) => a + s.rows, 0),
    },
  };
}

export function progressFigures(
  events: RunEventsRecorder,
  startedAt: number,
  now: number,
  quota: QuotaBaseline | undefined,
  outcome: 'running' | 'completed' | 'stopped' = 'running',
  /** Requests the service refused with 429 so far (sent, not charged, sent again). */
  refused = 0,
): ProgressFigures {
  const finished = outcome === 'completed';
  const stopped = outcome === 'stopped';
  const snap = events.snapshot();
  const requests = Object.values(snap.requests).reduce((a, b) => a + b, 0);
  const seconds = Math.max(0.001, (now - startedAt) / 1000);
  const rate = requests / seconds;
  const refusedSoFar = Math.min(refused, requests);
  const streams = streamFigures(snap, seconds, finished, requests > 0 ? (requests - refusedSoFar) / requests : 1);
  // Never below what was sent: a stream sent for without a plan, or requests no stream claimed.
  const streamPlans = streams.reduce((a, s) => a + Math.max(s.planned, s.requests), 0);
  const planned = streams.some((s) => s.planned > 0) ? Math.max(streamPlans, requests) : 0;
  const etaSeconds = finished || stopped ? undefined : etaOf(requests, requests - refusedSoFar, planned, seconds);
  return {
    requests,
    planned,
    refused: refusedSoFar,
    rows: snap.rows,
    rate,
    etaSeconds,
    quotaUsed: quota ? quotaUsedNow(quota, requests, now) : undefined,
    quotaLimit: quota?.limit,
    streams,
    // Of the streams with requests to send, as the line's "N/M streams done" counts them (a stream
    // with nothing to fetch, a closed market's, is done at once and counted in neither).
    streamsDone: streams.filter((s) => s.done && s.planned > 0).length,
    finished,
    stopped,
  };
}

export const n = groupedCount;

/** A count and its noun, singular for exactly one: "1 file", "1,441 rows" (`format` writes the count). */
export const counted = (v: number, noun: string, format: (v: number) => string = n): string => `${format(v)} ${noun}${Math.round(v) === 1 ? '' : 's'}`;

/** A size in the unit that reads best: `512 B`, `22.7 KiB`, `1.5 MiB`, `2.25 GiB`. */
export function byteSize(b: number): string {
  if (b < 1024) return `${b} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 ** 3) return `${(b / 1024 / 1024).toFixed(1)} MiB`;
  return `${(b / 1024 ** 3).toFixed(2)} GiB`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One plain progress line (no ANSI), for logs and pipes. */
export function progressLine(label: string, f: ProgressFigures): string {
  const parts: string[] = [];
  const percent = Math.floor(doneShare(f.requests, f.requests - f.refused, f.planned) * 100);
  parts.push(f.planned > 0 ? `${n(f.requests)}/${n(f.planned)} requests (${percent}%)` : `${n(f.requests)} requests`);
  // Why the share stands still while requests go out.
  if (f.refused > 0) parts.push(`${n(f.refused)} refused with 429`);
  const planned = f.streams.filter((s) => s.planned > 0).length;
  if (planned > 0) parts.push(`${n(f.streamsDone)}/${n(planned)} streams done`);
  const rows = Object.entries(f.rows).map(([d, c]) => `${d} ${counted(c.received, 'row')}`);
  if (rows.length > 0) parts.push(rows.join(', '));
  parts.push(`${f.rate.toFixed(1)} req/s`);
  if (f.etaSeconds !== undefined) parts.push(`ETA ${formatDuration(f.etaSeconds)}`);
  if (f.quotaUsed !== undefined && f.quotaLimit !== undefined) parts.push(`quota ${n(f.quotaUsed)}/${n(f.quotaLimit)}`);
  return `quotelake: ${label}: ${parts.join(', ')}`;
}
