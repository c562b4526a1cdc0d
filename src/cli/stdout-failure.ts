/**
 * A command's output that stdout refused (`> file` on a full disk: ENOSPC; EIO), said once at the
 * exit instead of lost behind exit 0, or shown as Node's "Unhandled 'error' event" mid-command. A
 * reader that left (`| head`: EPIPE) ends the output on purpose and is not a failure here.
 */
import { STDOUT_FIX } from '../core/stdout-fix.js';

const READER_GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** The first such error; `process.stdout.errored` does not keep it (stdout is never destroyed). */
let seen: NodeJS.ErrnoException | undefined;

/** Listen from the start: the 'error' event comes a tick after the write that failed. */
export function watchStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!READER_GONE.has(e.code ?? '')) seen ??= e;
  });
  // Where stderr refuses (2>/dev/full), nothing can be said there, but the exit code still says
  // what happened: without a listener the error would end the process as an uncaught one (exit 1).
  process.stderr.on('error', () => undefined);
}

/**
 * The failure to report, if any. `flushError`: the error handed to the callback of a last empty
 * write, which an errored stdout gives before it emits its 'error' event.
 */
export function stdoutFailure(flushError: NodeJS.ErrnoException | null | undefined): NodeJS.ErrnoException | undefined {
  if (flushError && !READER_GONE.has(flushError.code ?? '')) return flushError;
  return seen;
}

export function stdoutFailureLines(failed: NodeJS.ErrnoException): string {
  return `quotelake: cannot write to stdout (${failed.message}): what this command printed is incomplete\n  hint: ${STDOUT_FIX}\n`;
}
