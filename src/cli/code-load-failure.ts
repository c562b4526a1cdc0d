/**
 * A process whose open-file limit is too low for Node to open quotelake's own code files (`ulimit
 * -n 40`): Node's stack would be all the user sees, from a command that never started. Said as one
 * line with the fix instead; exit 2, since the same command fails again until the limit is raised.
 * No imports: bin.ts loads this before anything that could fail to load.
 */

/** Node's module loader, in the stack of an error met while loading code (ES modules and require). */
const MODULE_LOADER = 'node:internal/modules/';

function openFileLimitCode(error: unknown): 'EMFILE' | 'ENFILE' | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EMFILE' || code === 'ENFILE' ? code : undefined;
}

/** What failed and the fix, for an EMFILE or ENFILE met while loading code (`loading`: known to be, as bin.ts knows), else undefined. */
function codeLoadFailure(error: unknown, loading: boolean): { readonly message: string; readonly hint: string } | undefined {
  const code = openFileLimitCode(error);
  if (code === undefined) return undefined;
  if (!loading && !String((error as { stack?: unknown }).stack).includes(MODULE_LOADER)) return undefined;
  return code === 'EMFILE'
    ? { message: 'EMFILE: too many open files to load quotelake itself', hint: 'raise the open-file limit (ulimit -n, e.g. ulimit -n 1024) and run the command again' }
    : { message: 'ENFILE: the system has too many open files to load quotelake itself', hint: 'close programs that hold many, or raise the system-wide limit (fs.file-max), and run the command again' };
}

/** The one line for an EMFILE or ENFILE met while loading code (`loading`: known to be, as bin.ts knows), else undefined. */
export function codeLoadFailureLine(error: unknown, loading = false): string | undefined {
  const failure = codeLoadFailure(error, loading);
  return failure === undefined ? undefined : `${failure.message}: ${failure.hint}`;
}

/**
 * The same failure as a log line of `--log-format json` (the shape of json-notices.ts's `error`
 * event, written here since nothing else could be loaded), so a collector that reads each stderr
 * line as JSON gets this one too. `now` is the wall clock: --clock is not parsed yet.
 */
export function codeLoadFailureJsonLine(error: unknown, now: Date): string | undefined {
  const failure = codeLoadFailure(error, true);
  if (failure === undefined) return undefined;
  const code = openFileLimitCode(error)!;
  return JSON.stringify({
    level: 'error',
    time: now.toISOString(),
    event: 'error',
    code: 'QL_TOO_MANY_FILES',
    hint: failure.hint,
    err: { type: 'EnvironmentError', message: failure.message, code },
    msg: failure.message,
  });
}
