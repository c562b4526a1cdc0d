/**
 * Progress of `inspect` on a terminal: one cli-progress bar of files read, on stderr. Nothing
 * when stderr is not a terminal or the output is JSON (a script reads stdout and exit code).
 */
import { SingleBar } from 'cli-progress';
import type { ReadProgress } from '../../lake/reader/index.js';
import type { Terminal } from '../terminal.js';

export interface InspectProgress {
  readonly onProgress: ReadProgress | undefined;
  stop(): void;
}

export function inspectProgress(terminal: Terminal, enabled: boolean): InspectProgress {
  if (!enabled || !terminal.stderrIsTTY) return { onProgress: undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream: terminal.stderr as NodeJS.WritableStream,
    format: ' inspect [{bar}] {value}/{total} files | {duration_formatted}',
    hideCursor: true,
    clearOnComplete: true,
    fps: 10,
    barsize: 30,
    // The terminal already said stderr is a TTY: draw on the stream we were given.
    noTTYOutput: true,
  });
  let started = false;
  return {
    onProgress(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
