/**
 * Progress on stderr only. On a terminal: bars drawn in place (see progress-frame.ts for what they
 * show and tty-painter.ts for how), redrawn on every count at most ten times a second and every
 * half second for rate and ETA. Otherwise: one plain line every `intervalMs` (default 5 s), and
 * a last one at `stop` after any.
 *
 * While the bars are up, every line printed through the terminal (log lines, a signal's notice)
 * goes above them, whole; `stop` draws the final frame once and leaves it above the summary.
 */
import type { Clock } from '../../core/clock.js';
import type { RunEventsRecorder } from '../../runtime/run-events.js';
import type { Terminal } from '../terminal.js';
import { progressFigures, progressLine, type ProgressFigures, type QuotaBaseline } from './progress-figures.js';
import { renderFrame } from './progress-frame.js';
import { createPainter } from './tty-painter.js';

/** Counts change often: a frame at most this often (ms). */
const FRAME_MS = 100;
/** Rate and ETA move with time even when no count does. */
const TICK_MS = 500;
/** Width assumed when neither the terminal nor $COLUMNS says. */
const DEFAULT_COLUMNS = 80;

export type ProgressMode = 'bars' | 'lines' | 'off';

/** How the run ended, for the last frame: `completed` shows every stream done at what it sent. */
export type ProgressOutcome = 'completed' | 'stopped';

export interface Progress {
  /** One line (or block) above the bars; on its own line, never cut. */
  log(line: string): void;
  stop(outcome?: ProgressOutcome): void;
}

export interface ProgressOptions {
  readonly mode: ProgressMode;
  readonly terminal: Terminal;
  readonly events: RunEventsRecorder;
  readonly clock: Clock;
  /** Pipeline name shown on every line. */
  readonly label: string;
  readonly quota?: QuotaBaseline | undefined;
  /** Requests the service refused with 429 so far: sent again, so they are no progress. */
  readonly refused?: (() => number) | undefined;
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
    let printed = false;
    const print = () => {
      terminal.err(progressLine(label, progressFigures(events, startedAt, clock.now(), options.quota, 'running', options.refused?.() ?? 0)));
      printed = true;
    };
    const timer = setInterval(print, options.intervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS);
    timer.unref();
    return {
      log: (line) => terminal.err(line.replace(/\n$/, '')),
      stop: () => {
        clearInterval(timer);
        // A log that showed the run's progress ends with where it stopped; a run shorter than one
        // interval stays without any line.
        if (printed) print();
      },
    };
  }
  return barsProgress(options, startedAt);
}

function barsProgress(options: ProgressOptions, startedAt: number): Progress {
  const { terminal, events, clock, label } = options;
  // The pipeline's name once, above its bars (bar lines must fit an 80-column terminal).
  terminal.err(`quotelake: running ${label}`);
  const painter = createPainter(terminal.stderr);
  const figures = (outcome?: ProgressOutcome) => progressFigures(events, startedAt, clock.now(), options.quota, outcome ?? 'running', options.refused?.() ?? 0);
  const frame = (f: ProgressFigures) =>
    renderFrame(f, {
      columns: terminalColumns(terminal.stderr as { columns?: number }),
      rows: terminalRows(terminal.stderr as { rows?: unknown }),
      colors: terminal.colors,
    });
  let stopped = false;
  let pending: NodeJS.Timeout | undefined;
  const draw = () => {
    pending = undefined;
    if (stopped) return;
    const f = figures();
    // Nothing planned, sent or received yet (the source is still planning): a frame now would read
    // `0` with no plan to measure it by; the first one comes with the plan.
    if (f.planned === 0 && f.requests === 0 && f.streams.length === 0 && Object.keys(f.rows).length === 0) return;
    painter.draw(frame(f));
  };
  const soon = () => {
    if (stopped || pending) return;
    pending = setTimeout(draw, FRAME_MS);
    pending.unref();
  };
  const offs = [events.on('request', soon), events.on('rows', soon), events.on('planned', soon), events.on('streamRows', soon), events.on('streamDone', soon)];
  const timer = setInterval(draw, TICK_MS);
  timer.unref();
  // Every other line for stderr (a signal's notice, a connection's) lands above the bars too.
  terminal.setOverlay({ log: (text) => painter.log(text) });
  draw();
  return {
    log: (line) => painter.log(terminal.redact(line.replace(/\n$/, ''))),
    stop: (outcome = 'stopped') => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (pending) clearTimeout(pending);
      for (const off of offs) off();
      terminal.setOverlay(undefined);
      painter.finish(frame(figures(outcome)));
    },
  };
}

/** The terminal's width; a pseudo-terminal nobody sized says 0: then $COLUMNS, else 80. */
function terminalColumns(stream: { columns?: number }): number {
  if (stream.columns !== undefined && stream.columns > 0) return stream.columns;
  const env = Number(process.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : DEFAULT_COLUMNS;
}

/** The terminal's height, when the stream knows it (a TTY's `rows`). */
function terminalRows(stream: { rows?: unknown }): number | undefined {
  return typeof stream.rows === 'number' && stream.rows > 0 ? stream.rows : undefined;
}
