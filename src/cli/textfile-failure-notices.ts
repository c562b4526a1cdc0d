/**
 * What a long run says of periodic --metrics-textfile writes that fail: the first failure once, with
 * the option, the path, the cause and what to do; then nothing more while writes fail the same way
 * (a line every --metrics-interval would bury the run's other lines), a line when the cause changes,
 * and a line when a write succeeds again. The final write's failure is the command's error (run.ts).
 */
import { describeError } from './describe-error.js';
import type { NoticeFields } from './terminal.js';

export interface TextfileFailureNotices {
  onError(error: unknown): void;
  onRecovered(failedWrites: number): void;
}

/**
 * `told` makes the option's error of a write's (metrics-exposure.ts), whose message leads with
 * `--metrics-textfile PATH`; `say` prints a notice.
 */
export function textfileFailureNotices(
  path: string,
  intervalMs: number,
  told: (error: unknown) => unknown,
  say: (line: string, notice: NoticeFields, asText?: string) => void,
): TextfileFailureNotices {
  let saidCause: string | undefined;
  const every = `${intervalMs / 1000} s`;
  return {
    onError(error) {
      const described = describeError(told(error));
      const cause = causeKey(error, described.code);
      if (cause === saidCause) return;
      const again = saidCause !== undefined;
      saidCause = cause;
      const line = `quotelake: ${described.message} (${again ? 'the periodic writes now fail otherwise' : 'a periodic write'}; the run goes on and tries again every ${every}, said again when a write succeeds or fails otherwise)`;
      const hint = `${described.hint ?? 'fix the path or choose another --metrics-textfile'}; the write at the end of the run must succeed, or the command ends with this error`;
      say(line, { level: 'warn', event: 'metrics-textfile-error', path, code: described.code, hint }, `${line}\n  hint: ${hint}`);
    },
    onRecovered(failedWrites) {
      if (saidCause === undefined) return;
      saidCause = undefined;
      const writes = `${failedWrites} failed write${failedWrites === 1 ? '' : 's'}`;
      say(`quotelake: --metrics-textfile ${path}: written again after ${writes}`, { level: 'info', event: 'metrics-textfile-recovered', path, failedWrites });
    },
  };
}

/**
 * The same failure, write after write: the code told and the Node error's code and call. Not the
 * message, which names each write's own temp file.
 */
function causeKey(error: unknown, code: string): string {
  let e: unknown = error;
  for (let depth = 0; depth < 10 && e !== null && typeof e === 'object'; depth += 1) {
    const node = e as { code?: unknown; syscall?: unknown; cause?: unknown };
    if (typeof node.code === 'string') return `${code} ${node.code} ${String(node.syscall ?? '')}`;
    e = node.cause;
  }
  return `${code} ${error instanceof Error ? error.message : String(error)}`;
}
