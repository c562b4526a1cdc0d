/** Turns any error into what the user reads (`quotelake: <message>` + a hint) and an exit code. */
import { PipelineConfigError } from '../config/parse-pipeline.js';
import { AbortedError, ApiError, ConfigError, OutputClosedError, PlansFileError, QuotaExhaustedError, QuotelakeError, RejectedRecordError, TransportError } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_USAGE } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import type { Colors } from './colors.js';

export interface DescribedError {
  readonly exitCode: number;
  readonly code: string;
  readonly message: string;
  readonly hint?: string | undefined;
}

function apiHint(e: ApiError): string | undefined {
  switch (e.ret) {
    case 401:
      return 'the service does not know this token: check QUOTELAKE_TOKEN (or --token) and the base URL';
    case 604:
      return 'the token\'s plan does not cover these products: drop them from codes, or use a plan that covers their market';
    case 600:
      return 'a product code is not known to the service: codes are case-sensitive (see the product list)';
    case 605:
      return 'too many products in one request for this plan: check --plan';
    case 429:
      return 'the service kept answering "rate limit": check that --plan matches the token\'s real plan';
    default:
      return e.httpStatus !== undefined && e.httpStatus >= 500 ? 'the service failed; try again later' : undefined;
  }
}

export function describeError(e: unknown): DescribedError {
  if (e instanceof UsageError) return { exitCode: EXIT_USAGE, code: 'QL_USAGE', message: e.message, hint: e.hint };
  if (e instanceof PipelineConfigError) {
    return {
      exitCode: EXIT_USAGE,
      code: e.code,
      message: e.problems.length > 1 ? `${e.problems.length} problems in the pipeline:\n${e.describeAll()}` : e.message,
      hint: 'fix the pipeline file ("quotelake validate <pipeline>" checks it without running; "quotelake schema" prints its JSON Schema)',
    };
  }
  if (e instanceof ConfigError) return { exitCode: EXIT_USAGE, code: e.code, message: e.message, hint: 'fix the pipeline file or the option named above' };
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
  if (e instanceof ApiError) return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint: apiHint(e) };
  if (e instanceof TransportError) {
    return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint: 'check the base URL and the network; committed work is kept and a new run resumes' };
  }
  if (e instanceof RejectedRecordError) {
    return {
      exitCode: EXIT_FAILURE,
      code: e.code,
      message: e.message,
      hint: 'the pipeline says onReject: fail; set options.onReject to divert (keep them under _rejected/) or drop',
    };
  }
  if (e instanceof QuotelakeError) {
    const hint =
      e.code === 'QL_OUTPUT_LOCKED'
        ? 'another run is writing to this output; wait for it, or use another --output'
        : e.code === 'QL_FORMAT_VERSION'
          ? 'a newer quotelake wrote this output: upgrade quotelake to use it (nothing was changed)'
          : undefined;
    return { exitCode: EXIT_FAILURE, code: e.code, message: e.message, hint };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { exitCode: EXIT_FAILURE, code: 'QL_INTERNAL', message, hint: 'this looks like a bug in quotelake; run with --log-level debug and report it' };
}

/** `quotelake: <message>` and, on its own line, the hint. */
/** Coloured only when `colors` are on (a terminal): off it, the text is the same byte for byte. */
export function formatError(d: DescribedError, colors?: Colors): string {
  const red = colors?.red ?? String;
  const dim = colors?.dim ?? String;
  return `${red('quotelake:')} ${d.message}${d.hint ? `\n  ${dim('hint:')} ${d.hint}` : ''}`;
}
