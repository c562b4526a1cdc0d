/**
 * Every error quotelake raises. A small set of classes that carry data and a stable `code`,
 * so the CLI can map them to messages and exit codes without parsing text.
 * Messages name the thing (file:line:column, endpoint and ret, code and field), never the token.
 */

import { apiHint } from './api-hints.js';
import { lakeArgs } from './lake-args.js';

export type ErrorStage = 'config' | 'plan' | 'read' | 'transform' | 'write' | 'commit' | 'serve';

export interface QuotelakeErrorOptions {
  stage: ErrorStage;
  retryable?: boolean;
  cause?: unknown;
  /** What to do about it, where the place that raises it knows best (the CLI's hint line). */
  hint?: string;
}

export class QuotelakeError extends Error {
  readonly code: string;
  readonly stage: ErrorStage;
  readonly retryable: boolean;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: QuotelakeErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.stage = options.stage;
    this.retryable = options.retryable ?? false;
    this.hint = options.hint;
  }
}

/** A pipeline file or option is wrong. `file`, `line` and `column` point at it when known. */
export class ConfigError extends QuotelakeError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    message: string,
    where: { file?: string; line?: number; column?: number } = {},
    cause?: unknown,
    hint?: string,
  ) {
    const prefix = where.file
      ? `${where.file}${where.line !== undefined ? `:${where.line}:${where.column ?? 1}` : ''}: `
      : '';
    super('QL_CONFIG', `${prefix}${message}`, { stage: 'config', cause, ...(hint !== undefined ? { hint } : {}) });
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
  }
}

/**
 * A pipeline's checkpoints were saved for another sink (checkpoint-sink.ts): resuming from them would
 * skip data this sink never got. Exit 2, before anything is sent; `hint` says the ways out.
 */
export class StateConflictError extends ConfigError {
  constructor(
    message: string,
    file: string,
    override readonly hint: string,
  ) {
    super(message, { file });
  }
}

/** The service answered with a `ret` other than 200, or a suspension error (HTTP 500 `{success:false}`). */
export class ApiError extends QuotelakeError {
  readonly ret: number | undefined;
  readonly httpStatus: number | undefined;
  readonly serviceMessage: string;
  readonly trace: string | undefined;
  readonly endpoint: string;
  readonly codes: readonly string[];

  constructor(details: {
    code?: string;
    ret?: number;
    httpStatus?: number;
    serviceMessage: string;
    trace?: string;
    endpoint: string;
    codes?: readonly string[];
    retryable: boolean;
    cause?: unknown;
    /** What to do, when the client knows better than the `ret` alone (api-hints.ts). */
    hint?: string;
  }) {
    const codes = details.codes ?? [];
    const what = details.ret !== undefined ? `ret ${details.ret}` : `HTTP ${details.httpStatus ?? '?'}`;
    const codeList = codes.length > 0 ? ` for ${summariseCodes(codes)}` : '';
    const trace = details.trace ? ` (trace ${details.trace})` : '';
    super(
      details.code ?? apiErrorCode(details.ret),
      // An answer with no message of its own (a redirect, an empty 404) reads without a double space.
      `${details.endpoint}: ${what}${details.serviceMessage.trim() !== '' ? ` ${details.serviceMessage}` : ''}${codeList}${trace}`,
      {
        stage: 'read',
        retryable: details.retryable,
        cause: details.cause,
        hint: details.hint ?? apiHint({ code: details.code ?? apiErrorCode(details.ret), ret: details.ret, httpStatus: details.httpStatus, retryable: details.retryable }),
      },
    );
    this.ret = details.ret;
    this.httpStatus = details.httpStatus;
    this.serviceMessage = details.serviceMessage;
    this.trace = details.trace;
    this.endpoint = details.endpoint;
    this.codes = codes;
  }
}

/**
 * The network failed, timed out, or the body was truncated or unparsable. Retryable, except where
 * the transport knows no attempt can pass (a host name that does not resolve, a certificate refused).
 */
export class TransportError extends QuotelakeError {
  readonly endpoint: string;
  /** false when the connection was never made (refused, no route, name not found): nothing was counted. */
  readonly reachedServer: boolean;
  constructor(endpoint: string, message: string, cause?: unknown, reachedServer = true, retryable = true, hint?: string) {
    super('QL_API_TRANSPORT', `${endpoint}: ${message}`, { stage: 'read', retryable, cause, ...(hint !== undefined ? { hint } : {}) });
    this.endpoint = endpoint;
    this.reachedServer = reachedServer;
  }
}

/** A response did not match the documented shape. */
export class ResponseShapeError extends QuotelakeError {
  readonly endpoint: string;
  constructor(endpoint: string, message: string, cause?: unknown) {
    super('QL_API_SHAPE', `${endpoint}: unexpected response shape: ${message}`, {
      stage: 'read',
      retryable: false,
      cause,
    });
    this.endpoint = endpoint;
  }
}

/** What a command-line user can change: no flag or pipeline key sets the cap, and the same request brings the same answer. */
function tooLargeHint(endpoint: string, limitBytes: number): string {
  const cap = limitBytes % 1_048_576 === 0 ? `${limitBytes / 1_048_576} MiB` : `${limitBytes} bytes`;
  if (endpoint.includes('/api/suspension/')) {
    return `a year of halts in one answer is more than the client reads (${cap}): set the trading-halts source's pageSize (e.g. 500) to fetch it in pages; the same command unchanged fails the same way`;
  }
  return `no answer of ${endpoint} should be this large (500 bars or 50 books are well under 1 MB): check that the base URL is the market-data service itself, not a proxy or another API; the same command unchanged fails the same way`;
}

/**
 * An answer larger than the client's `maxResponseBytes`: refused before parsing, never retried
 * (the same request would bring the same answer), so one huge or endless body cannot exhaust memory.
 */
export class ResponseTooLargeError extends QuotelakeError {
  readonly endpoint: string;
  readonly limitBytes: number;
  constructor(endpoint: string, limitBytes: number, seenBytes: number) {
    super('QL_API_TOO_LARGE', `${endpoint}: response refused: more than ${limitBytes} bytes (at least ${seenBytes} seen; a library client sets the cap with maxResponseBytes)`, {
      stage: 'read',
      retryable: false,
      hint: tooLargeHint(endpoint, limitBytes),
    });
    this.endpoint = endpoint;
    this.limitBytes = limitBytes;
  }
}

/** Today's request quota of the token is used up. `resetAt` is the next midnight in quotaTimeZone. */
export class QuotaExhaustedError extends QuotelakeError {
  readonly resetAt: Date;
  readonly used: number;
  readonly limit: number;
  /**
   * What a call of several requests (a snapshot round's families, a batch's chunks) had received
   * when the cap stopped the rest, in the call's own result shape: those answers were charged.
   */
  readonly partial?: unknown;
  constructor(details: { resetAt: Date; used: number; limit: number; cause?: unknown; partial?: unknown }) {
    super(
      'QL_QUOTA_EXHAUSTED',
      `daily request quota used up (${details.used} of ${details.limit}); it resets at ${details.resetAt.toISOString()}`,
      { stage: 'read', retryable: false, cause: details.cause },
    );
    this.resetAt = details.resetAt;
    this.used = details.used;
    this.limit = details.limit;
    if (details.partial !== undefined) this.partial = details.partial;
  }

  /** The same stop, carrying what the call had received (a new error: one instance is shared by every request the cap stopped). */
  withPartial(partial: unknown): QuotaExhaustedError {
    return new QuotaExhaustedError({ resetAt: this.resetAt, used: this.used, limit: this.limit, cause: this.cause, partial });
  }
}

/** A sink could not write, flush or commit. */
export class SinkError extends QuotelakeError {
  constructor(message: string, stage: 'write' | 'commit' = 'write', cause?: unknown, hint?: string) {
    super(stage === 'commit' ? 'QL_SINK_COMMIT' : 'QL_SINK_WRITE', message, { stage, cause, ...(hint !== undefined ? { hint } : {}) });
  }
}

/**
 * A state or format file (checkpoint, manifest, commit journal, layout) carries a version this
 * quotelake cannot read: newer than the newest it knows, or none at all. Nothing of it is used.
 */
export class FormatVersionError extends QuotelakeError {
  constructor(
    readonly what: string,
    readonly file: string,
    readonly version: unknown,
    readonly newest: number,
  ) {
    const found = typeof version === 'number' && Number.isInteger(version) && version >= 1;
    super(
      'QL_FORMAT_VERSION',
      found
        ? `${file}: ${what} version ${version} is newer than this quotelake reads (newest ${newest}); it was written by a newer quotelake: upgrade quotelake to use this output`
        : `${file}: ${what} has no valid version (found ${JSON.stringify(version)}; this quotelake reads versions 1 to ${newest})`,
      { stage: 'commit' },
    );
  }
}

/** The lake could not be read back: a manifest or data file is missing, truncated or not what it claims. */
export class LakeReadError extends QuotelakeError {
  constructor(
    message: string,
    readonly path: string,
    cause?: unknown,
  ) {
    super('QL_LAKE_READ', message, { stage: 'read', cause });
  }
}

/** A data file the manifest lists is not in the lake (a local file or an object alike). */
export class LakeObjectMissingError extends QuotelakeError {
  constructor(
    readonly root: string,
    readonly key: string,
  ) {
    super('QL_LAKE_MISSING', `${root}/${key}: no such file or object`, { stage: 'read' });
  }
}

/**
 * What to do after a commit another writer's Delta version undid (QL_DELTA_CONFLICT, or races lost
 * in a row): run again; if it fails the same way, repair. `output` is the lake's root where the
 * raiser knows it, so the command can be pasted; without it, a placeholder to fill in.
 */
export function deltaConflictHint(output?: string, endpoint?: string): string {
  const where = output === undefined ? '--output <output>' : lakeArgs(output, endpoint);
  return `another writer committed to this Delta table at the same time; this commit was undone and its checkpoint not saved: run the same command again and it resumes (give each output one writer to avoid it); if it fails the same way again, the log and the manifest disagree: "quotelake repair ${where} --dry-run" shows where, and --yes mends the log`;
}

/**
 * A Delta commit lost its race to a commit that makes it invalid (it removes a file another commit
 * already removed): retrying would not help, the caller must re-plan from the new snapshot.
 */
export class DeltaConflictError extends QuotelakeError {
  constructor(
    readonly table: string,
    readonly version: number,
    readonly paths: readonly string[],
    /** What the version did instead, when it was no remove of ours (a protocol upgrade). */
    why?: string,
    /** The lake's root (a folder, s3://bucket/prefix): the hint's repair command names it. */
    output?: string,
    /** The lake's store of its own (not AWS), named with it. */
    endpoint?: string,
  ) {
    super(
      'QL_DELTA_CONFLICT',
      why !== undefined
        ? `${table}: Delta version ${version}: ${why}`
        : `${table}: Delta version ${version} already removed ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` (+${paths.length - 3} more)` : ''}; this commit removes them too and cannot be retried`,
      { stage: 'commit', hint: deltaConflictHint(output, endpoint) },
    );
  }
}

/** A Delta log cannot be read or extended: a malformed entry, a missing version, too many lost races. */
export class DeltaLogError extends QuotelakeError {
  constructor(
    message: string,
    readonly table: string,
    options: { retryable?: boolean; cause?: unknown; hint?: string } = {},
  ) {
    super('QL_DELTA_LOG', table === '' ? message : `${table}: ${message}`, { stage: 'commit', ...options });
  }
}

/** A file name built from input (a sink path, a name, a partition value) would land outside its root. */
export class PathOutsideRootError extends QuotelakeError {
  constructor(
    readonly what: string,
    readonly value: string,
    readonly root: string,
    readonly problem: string,
  ) {
    super('QL_PATH_OUTSIDE_ROOT', `${what} ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)} ${problem}: it must name a file inside ${root}`, {
      stage: 'write',
    });
  }
}

/**
 * The reader of a stream sink (stdout) went away while rows were still to be written: the run
 * stops, and no checkpoint covers the rows it did not take.
 */
export class OutputClosedError extends QuotelakeError {
  constructor(
    readonly target: string,
    readonly rowsUnwritten: number,
  ) {
    super('QL_OUTPUT_CLOSED', `${target} was closed by its reader before ${rowsUnwritten} row(s) of the current batch were written; the run stopped there`, {
      stage: 'write',
    });
  }
}

/** A record was rejected and the pipeline says `onReject: fail`. */
export class RejectedRecordError extends QuotelakeError {
  readonly reason: string;
  constructor(reason: string) {
    super('QL_REJECTED', `record rejected: ${reason}`, { stage: 'transform' });
    this.reason = reason;
  }
}

/** The run was stopped by a signal or an AbortSignal. */
export class AbortedError extends QuotelakeError {
  constructor(message = 'run aborted') {
    super('QL_ABORTED', message, { stage: 'read' });
  }
}

function apiErrorCode(ret: number | undefined): string {
  switch (ret) {
    case 400:
      return 'QL_API_BAD_REQUEST';
    case 401:
      return 'QL_API_TOKEN_INVALID';
    case 429:
      return 'QL_API_RATE_LIMIT';
    case 600:
      return 'QL_API_CODE_INVALID';
    case 601:
      return 'QL_API_BODY_EMPTY';
    case 604:
      return 'QL_API_CODE_UNAUTHORIZED';
    case 605:
      return 'QL_API_TOO_MANY_CODES';
    default:
      return 'QL_API_ERROR';
  }
}

function summariseCodes(codes: readonly string[]): string {
  return codes.length <= 5 ? codes.join(',') : `${codes.slice(0, 5).join(',')} and ${codes.length - 5} more`;
}

/**
 * A plans file (custom plans, and the emulator's extra tokens) cannot be read or says something
 * wrong. The message starts with the file and names the field (`plans[0].perSecond`).
 */
export class PlansFileError extends QuotelakeError {
  readonly file: string;
  readonly field: string | undefined;
  /** The file could not be read at all (missing, a folder, not permitted): the fault is in whatever named it. */
  readonly unreadable: boolean;

  constructor(file: string, reason: string, field?: string, unreadable = false) {
    super('QL_PLANS_FILE', `${file}: ${field !== undefined ? `${field}: ` : ''}${reason}`, { stage: 'config' });
    this.file = file;
    this.field = field;
    this.unreadable = unreadable;
  }
}

/**
 * The machine or the network refused what was asked: a folder that is not writable, a full disk, a
 * port in use, a host that does not resolve, a certificate refused. Not a defect of quotelake, so
 * never labelled one: `code` says which (see environment-error.ts), `target` names the path or
 * address, `fix` says what to change. The original Node error is the `cause`.
 */
export class EnvironmentError extends QuotelakeError {
  constructor(
    code: string,
    message: string,
    readonly target: string,
    readonly fix: string,
    options: QuotelakeErrorOptions,
  ) {
    super(code, message, options);
  }
}

/**
 * An `s3://bucket/prefix` location (or an S3 endpoint) that cannot be used as written: a bucket name
 * S3 refuses, a prefix with `..`, empty segments or control characters, credentials in the URL.
 * Caught before any request, so the message never depends on what a store would answer.
 */
export class S3LocationError extends QuotelakeError {
  constructor(
    readonly value: string,
    readonly problem: string,
  ) {
    super('QL_S3_LOCATION', `${value}: ${problem}`, { stage: 'config' });
  }
}

/**
 * The shared limiter's Redis (`--coordinator`) cannot be reached or refused a command. Nothing is
 * admitted without it (fail closed: a request it cannot count could exceed the plan), so the run
 * stops; committed work is kept. Retryable: the same command works once Redis is back. `target` is
 * the coordinator's address without any password.
 */
export class CoordinatorDownError extends QuotelakeError {
  constructor(
    readonly target: string,
    /** What failed, in a few words (ECONNREFUSED, "no connection for 15 s"). */
    readonly reason: string,
    /** retryable false: the wait for Redis is already spent (--coordinator-patience). */
    options: { retryable?: boolean } = {},
  ) {
    super('QL_COORDINATOR_DOWN', `coordinator ${target} is unreachable (${reason}): no request is admitted without it`, {
      stage: 'read',
      retryable: options.retryable ?? true,
    });
  }
}
