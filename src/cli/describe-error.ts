/** Turns any error into what the user reads (`quotelake: <message>` + a hint) and an exit code. */
import { tlsMismatchHint } from './tls-mismatch-hint.js';
import { PipelineConfigError } from '../config/pipeline-config-error.js';
import { AbortedError, ApiError, ConfigError, DeltaConflictError, deltaConflictHint, DeltaLogError, OutputClosedError, PlansFileError, QuotaExhaustedError, QuotelakeError, RejectedRecordError, S3LocationError, StateConflictError, TransportError } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_TABLE_CONFLICT, EXIT_USAGE } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import { causeChain, ENVIRONMENT_USAGE_CODES, environmentErrorOf } from '../core/environment-error.js';
import { packageVersion } from '../lake/package-version.js';
import { redactToken } from '../core/redact.js';
import type { Colors } from './colors.js';
import type { Terminal } from './terminal.js';
import { takesLogLevel } from './wants-debug.js';
import { shellWord } from '../core/shell-word.js';
import { codeLoadFailureLine } from './code-load-failure.js';

export interface DescribedError {
  readonly exitCode: number;
  readonly code: string;
  readonly message: string;
  readonly hint?: string | undefined;
}

const SHAPE_HINT =
  'the answer is not the documented shape: check that the base URL is the market-data service itself (not a proxy, a login page or another API); committed work is kept and a new run resumes';

/** Said of a QuotelakeError with no advice of its own, so every error has its hint line. */
const GENERIC_HINT = 'committed work is kept: fix what the message names and run the same command again, which resumes from the last commit';

function quotelakeHint(e: QuotelakeError): string {
  switch (e.code) {
    case 'QL_OUTPUT_LOCKED':
      // A command other than a run (a state reset) knows its own way out: another --output is none.
      return e.hint ?? 'another quotelake command (a run, compact, vacuum, repair or migrate: the message names it) is writing to this output; wait for it to end, or use another --output';
    case 'QL_FORMAT_VERSION':
      return 'a newer quotelake wrote this output: upgrade quotelake to use it (nothing was changed)';
    case 'QL_LAKE_LEASE_LOST':
      return 'this run no longer holds the lake (the message says why), so it committed nothing more; committed work is kept: run the same command again once the run holding the lake has ended (while its lease is live a new run stops at once with QL_OUTPUT_LOCKED; an expired lease is taken over), and it resumes';
    case 'QL_COORDINATOR_DOWN':
      // Said of plan, quota and a dry run too, which commit nothing: the resuming is a run's.
      return `start Redis again (or fix --coordinator / QUOTELAKE_REDIS_URL) and run the same command (a run resumes from its last commit); nothing is sent without the coordinator, so the plan is never exceeded${tlsMismatchHint(e.message)}`;
    case 'QL_API_SHAPE':
      return SHAPE_HINT;
    default:
      return e.hint ?? GENERIC_HINT;
  }
}

/** The hint of a usage error that names none; main.ts names the command when it knows it. */
export const USAGE_HINT = 'run "quotelake <command> --help" for what each option takes';

export function describeError(e: unknown): DescribedError {
  // Every error has its hint line: a usage error that names none points at the command's help.
  if (e instanceof UsageError) return { exitCode: EXIT_USAGE, code: 'QL_USAGE', message: e.message, hint: e.hint ?? USAGE_HINT };
  if (e instanceof PipelineConfigError) {
    return {
      exitCode: EXIT_USAGE,
      code: e.code,
      message: e.problems.length > 1 ? `${e.problems.length} problems in the pipeline:\n${e.describeAll()}` : e.message,
      hint: 'fix the pipeline file ("quotelake validate <pipeline>" checks it without running; "quotelake schema" prints its JSON Schema)',
    };
  }
  if (e instanceof StateConflictError) return { exitCode: EXIT_USAGE, code: e.code, message: e.message, hint: e.hint };
  // The place that raised it knows the way out best (a damaged checkpoint file is no pipeline file).
  if (e instanceof ConfigError) return { exitCode: EXIT_USAGE, code: e.code, message: e.message, hint: e.hint ?? 'fix the pipeline file or the option named above' };
  // A bad s3:// URL or endpoint is a usage error: the command line or the pipeline names it.
  if (e instanceof S3LocationError) return { exitCode: EXIT_USAGE, code: e.code, message: e.message, hint: 'an S3 output is s3://bucket/prefix; an endpoint is http(s)://host[:port] (--s3-endpoint or AWS_ENDPOINT_URL)' };
  if (e instanceof PlansFileError) return { exitCode: EXIT_USAGE, code: e.code, message: e.message, hint: 'fix the plans file, or name a plan it defines' };
  if (e instanceof QuotaExhaustedError) {
    return {
      exitCode: EXIT_QUOTA,
      code: e.code,
      message: e.message,
      hint: `completed work is committed; run the same command again after ${e.resetAt.toISOString()} and it resumes where it stopped`,
    };
  }
  // One line, no hint: the user closed the pipe on purpose; they only need to know rows were lost.
  if (e instanceof OutputClosedError) return { exitCode: EXIT_OUTPUT_CLOSED, code: e.code, message: e.message };
  if (e instanceof AbortedError) return { exitCode: EXIT_INTERRUPTED, code: e.code, message: e.message, hint: 'run the same command again to resume' };
  // A command's own code that could not be opened (it loads when the command runs): as at start-up (bin.ts).
  const loading = codeLoadFailureLine(e);
  if (loading !== undefined) return { exitCode: EXIT_USAGE, code: 'QL_TOO_MANY_FILES', message: loading };
  // The machine or network said no (EACCES, ENOSPC, EADDRINUSE, ECONNREFUSED...), however deep in the causes.
  const environment = environmentErrorOf(e);
  if (environment) {
    const exitCode = ENVIRONMENT_USAGE_CODES.has(environment.code) ? EXIT_USAGE : EXIT_FAILURE;
    return { exitCode, code: environment.code, message: environment.message, hint: environment.fix };
  }
  if (e instanceof DeltaConflictError || (e instanceof DeltaLogError && e.retryable)) {
    return {
      exitCode: EXIT_TABLE_CONFLICT,
      code: e.code,
      message: e.message,
      // The raiser's hint names the output; one built without it (a library's own storage) fills in a placeholder.
      hint: e.hint ?? deltaConflictHint(),
    };
  }
  if (e instanceof DeltaLogError) {
    return {
      exitCode: EXIT_FAILURE,
      code: e.code,
      message: e.message,
      hint: e.hint ?? 'the table\'s _delta_log/ cannot be read or extended as named above; nothing was committed past it: restore the missing or damaged log file (or write to a new --output) and run again',
    };
  }
  if (e instanceof ApiError) return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint: e.hint };
  if (e instanceof TransportError) {
    return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint: e.hint ?? 'check the base URL and the network; committed work is kept and a new run resumes' };
  }
  if (e instanceof RejectedRecordError) {
    return {
      exitCode: EXIT_FAILURE,
      code: e.code,
      message: e.message,
      hint: 'the pipeline says onReject: fail; set options.onReject to divert (keep them under _rejected/) or drop',
    };
  }
  if (e instanceof QuotelakeError) return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint: quotelakeHint(e) };
  const message = e instanceof Error ? e.message : String(e);
  return { exitCode: EXIT_FAILURE, code: 'QL_INTERNAL', message, hint: bugHint(process.argv.slice(2)) };
}

/** The command line with any --token value masked (the terminal masks known tokens too; this covers every form). */
export function redactedCommand(argv: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--token' && i + 1 < argv.length) {
      out.push(a, redactToken(argv[i + 1]!));
      i++;
    } else out.push(a.startsWith('--token=') ? `--token=${redactToken(a.slice('--token='.length))}` : a);
  }
  return ['quotelake', ...out].map(shellWord).join(' ');
}

/** What a real defect asks of the user: the version, the command (token masked) and the stack. */
export function bugHint(argv: readonly string[]): string {
  return (
    `this looks like a bug in quotelake ${packageVersion()}; please report it with this message, the command ` +
    `(${redactedCommand(argv)}) and ${takesLogLevel(argv) ? 'the stack that the same command prints with --log-level debug' : 'the stack printed below'}`
  );
}

/**
 * For --log-level debug: the stack of the error and of each cause beneath it, so a report (or the
 * user) sees where it came from. Callers print it through the terminal, which masks the token.
 */
export function formatErrorDetails(e: unknown): string {
  return causeChain(e)
    .map((c, i) => {
      const text = c instanceof Error ? (c.stack ?? `${c.name}: ${c.message}`) : String(c);
      const code = (c as { code?: unknown }).code;
      const tag = typeof code === 'string' && !text.includes(code) ? ` [${code}]` : '';
      return `${i === 0 ? '' : 'caused by: '}${text}${tag}`;
    })
    .join('\n');
}

/** `quotelake: <message>` and, on its own line, the hint. */
/** Coloured only when `colors` are on (a terminal): off it, the text is the same byte for byte. */
export function formatError(d: DescribedError, colors?: Colors): string {
  const red = colors?.red ?? String;
  const dim = colors?.dim ?? String;
  return `${red('quotelake:')} ${d.message}${d.hint ? `\n  ${dim('hint:')} ${d.hint}` : ''}`;
}

/**
 * A failure outside a run's log (before the run, or of a command without one): the pair above for
 * a person, or one JSON line (`event: "error"`, its code, hint and `err`) when the command's
 * notices are JSON (--log-format json).
 */
export function sayFailure(terminal: Terminal, d: DescribedError, error: unknown): void {
  terminal.notice(d.message, { level: 'error', event: 'error', code: d.code, ...(d.hint ? { hint: d.hint } : {}), err: error }, formatError(d, terminal.colors));
}
