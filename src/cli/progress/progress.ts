/**
 * Progress on stderr only. On a terminal: cli-progress bars: one per stream (requests of planned,
 * rows, rate, ETA; the busiest when there are many, the rest summed in one line), a total (requests of
 * planned with rate, ETA and quota) and rows per dataset. Otherwise: one plain line every `intervalMs`
 * (default 5 s). Log lines go through `log` so they print above the bars instead of tearing them.
 */
import { MultiBar, type SingleBar } from 'cli-progress';
import type { Clock } from '../../core/clock.js';
import type { RunEventsRecorder } from '../../runtime/run-events.js';
import type { Terminal } from '../terminal.js';
import { formatDuration, n, progressFigures, progressLine, visibleStreams, type QuotaBaseline } from './progress-figures.js';

/** Stream labels are cut to this width so a stream bar fits 80 columns. */
const STREAM_LABEL_WIDTH = 18;
const STREAM_FORMAT = ' {label} [{bar}] {value}/{planned} | {rows} rows | {rate}/s | ETA {etaText}';

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export type ProgressMode = 'bars' | 'lines' | 'off';

export interface Progress {
  log(line: string): void;
  stop(): void;
}

export interface ProgressOptions {
  readonly mode: ProgressMode;
  readonly terminal: Terminal;
  readonly events: RunEventsRecorder;
  readonly clock: Clock;
  /** Pipeline name shown on every line. */
  readonly label: string;
  readonly quota?: QuotaBaseline | undefined;
  /** Plain-line period; default 5000 ms (QUOTELAKE_PROGRESS_INTERVAL_MS for tests). */
  readonly intervalMs?: number;
}

export const DEFAULT_PROGRESS_INTERVAL_MS = 5000;

export function chooseProgressMode(options: { quiet: boolean; json: boolean; isTTY: boolean }): ProgressMode {
  if (options.quiet) return 'off';
  return options.isTTY ? 'bars' : 'lines';
}

export function startProgress(options: ProgressOptions): Progress {
  const { terminal, events, clock, label } = options;
  const startedAt = clock.now();
  if (options.mode === 'off') {
    return { log: (line) => terminal.err(line.replace(/\n$/, '')), stop: () => undefined };
  }
  if (options.mode === 'lines') {
    const timer = setInterval(
      () => terminal.err(progressLine(label, progressFigures(events, startedAt, clock.now(), options.quota))),
      options.intervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
    );
    timer.unref();
    return { log: (line) => terminal.err(line.replace(/\n$/, '')), stop: () => clearInterval(timer) };
  }
  return barsProgress(options, startedAt);
}

function barsProgress(options: ProgressOptions, startedAt: number): Progress {
  const { terminal, events, clock, label } = options;
  const multi = new MultiBar(
    {
      stream: terminal.stderr as NodeJS.WritableStream,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      fps: 10,
      format: ` requests [{bar}] {value}/{total} | {rate}/s | ETA {etaText} | quota {quota}`,
      barsize: 20,
    },
    undefined,
  );
  const payload = () => {
    const f = progressFigures(events, startedAt, clock.now(), options.quota);
    return {
      f,
      p: {
        rate: f.rate.toFixed(1),
        etaText: f.etaSeconds !== undefined ? formatDuration(f.etaSeconds) : '-',
        quota: f.quotaUsed !== undefined && f.quotaLimit !== undefined ? `${n(f.quotaUsed)}/${n(f.quotaLimit)}` : '-',
      },
    };
  };
  // The pipeline's name once, above its bars (bar lines must fit an 80-column terminal).
  terminal.err(`quotelake: running ${label}`);
  const first = payload();
  // Below the total: one bar per shown stream, in slots reused from refresh to refresh (see visibleStreams).
  const streamSlots: SingleBar[] = [];
  let moreBar: SingleBar | undefined;
  const requestBar: SingleBar = multi.create(Math.max(1, first.f.planned), 0, first.p);
  const rowBars = new Map<string, SingleBar>();
  let stopped = false;

  const refresh = () => {
    if (stopped) return;
    const { f, p } = payload();
    const { shown, hidden } = visibleStreams(f.streams);
    const width = Math.min(STREAM_LABEL_WIDTH, Math.max(0, ...shown.map((s) => s.label.length)));
    // cli-progress draws bars in creation order: when stream lines are added, the lines below them
    // (the "more" summary and the rows per dataset) are taken away and drawn again underneath.
    if (shown.length > streamSlots.length || (hidden.count > 0 && !moreBar)) {
      if (moreBar) multi.remove(moreBar);
      moreBar = undefined;
      for (const bar of rowBars.values()) multi.remove(bar);
      rowBars.clear();
    }
    // Going from "all streams" to "some plus a summary" leaves fewer stream lines.
    while (streamSlots.length > shown.length) multi.remove(streamSlots.pop()!);
    shown.forEach((s, i) => {
      const sp = {
        label: fit(s.label, width),
        rows: n(s.rows),
        rate: s.rate.toFixed(1),
        etaText: s.done ? 'done' : s.etaSeconds !== undefined ? formatDuration(s.etaSeconds) : '-',
        planned: s.planned > 0 ? n(s.planned) : '?',
      };
      let bar = streamSlots[i];
      if (!bar) {
        bar = multi.create(1, 0, sp, { format: STREAM_FORMAT, barsize: 12 });
        streamSlots[i] = bar;
      }
      bar.setTotal(Math.max(1, s.planned, s.requests));
      bar.update(s.requests, sp);
    });
    if (hidden.count > 0) {
      const hp = {
        more: `${n(hidden.count)} more streams: ${n(hidden.requests)}/${n(hidden.planned)} requests, ${n(hidden.done)} done, ${n(hidden.rows)} rows`,
      };
      if (!moreBar) moreBar = multi.create(0, 0, hp, { format: ' {more}' });
      moreBar.update(0, hp);
    }
    requestBar.setTotal(Math.max(1, f.planned, f.requests));
    requestBar.update(f.requests, p);
    for (const [dataset, c] of Object.entries(f.rows)) {
      let bar = rowBars.get(dataset);
      if (!bar) {
        bar = multi.create(0, 0, { dataset, written: '0', rejected: '0' }, {
          format: ` {dataset} rows: {rows} received | {written} written | {rejected} rejected`,
        });
        rowBars.set(dataset, bar);
      }
      bar.update(c.received, { dataset, rows: n(c.received), written: n(c.written), rejected: n(c.rejected) });
    }
  };
  const offs = [events.on('request', refresh), events.on('rows', refresh), events.on('planned', refresh), events.on('streamRows', refresh)];
  // Rate and ETA move with time even when no event arrives.
  const timer = setInterval(refresh, 500);
  timer.unref();
  return {
    log: (line) => multi.log(`${terminal.redact(line.replace(/\n$/, ''))}\n`),
    stop: () => {
      if (stopped) return;
      refresh();
      stopped = true;
      clearInterval(timer);
      for (const off of offs) off();
      multi.stop();
    },
  };
}
