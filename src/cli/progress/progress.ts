/**
 * Progress on stderr only. On a terminal: cli-progress bars (requests of planned with rate, ETA and
 * quota; rows per dataset). Otherwise: one plain line every `intervalMs` (default 5 s). Log lines go
 * through `log` so they print above the bars instead of tearing them.
 */
import { MultiBar, type SingleBar } from 'cli-progress';
import type { Clock } from '../../core/clock.js';
import type { RunEventsRecorder } from '../../runtime/run-events.js';
import type { Terminal } from '../terminal.js';
import { formatDuration, n, progressFigures, progressLine, type QuotaBaseline } from './progress-figures.js';

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
  const requestBar: SingleBar = multi.create(Math.max(1, first.f.planned), 0, first.p);
  const rowBars = new Map<string, SingleBar>();
  let stopped = false;

  const refresh = () => {
    if (stopped) return;
    const { f, p } = payload();
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
  const offs = [events.on('request', refresh), events.on('rows', refresh), events.on('planned', refresh)];
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
