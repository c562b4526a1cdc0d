/**
 * Progress of `inspect` on a terminal: one bar of files read, on stderr, erased when done. Nothing
 * when stderr is not a terminal or the output is JSON (a script reads stdout and exit code).
 */
import type { ReadProgress } from '../../lake/reader/index.js';
import { formatDuration } from '../progress/progress-figures.js';
import { createPainter } from '../progress/tty-painter.js';
import type { Terminal } from '../terminal.js';

const BAR = 30;
/** Files are read fast: a frame at most this often (ms). */
const FRAME_MS = 100;

export interface InspectProgress {
  readonly onProgress: ReadProgress | undefined;
  stop(): void;
}

export function inspectProgress(terminal: Terminal, enabled: boolean): InspectProgress {
  if (!enabled || !terminal.stderrIsTTY) return { onProgress: undefined, stop: () => undefined };
  const painter = createPainter(terminal.stderr);
  const c = terminal.colors;
  const startedAt = Date.now();
  let lastDraw = -Infinity;
  let started = false;
  const line = (done: number, total: number) => {
    const full = total > 0 ? Math.round(Math.min(1, done / total) * BAR) : 0;
    return ` inspect [${c.cyan('='.repeat(full))}${c.dim('-'.repeat(BAR - full))}] ${done}/${total} files | ${formatDuration((Date.now() - startedAt) / 1000)}`;
  };
  return {
    onProgress(done, total) {
      started = true;
      const now = Date.now();
      if (done < total && now - lastDraw < FRAME_MS) return;
      lastDraw = now;
      painter.draw([line(done, total)]);
    },
    stop() {
      // The bar goes away: the report printed next takes its place.
      if (started) painter.finish([]);
    },
  };
}
