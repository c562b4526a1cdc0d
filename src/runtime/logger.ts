/**
 * The leveled logger behind every log line, built on pino: JSON lines with stable fields (`time`
 * ISO UTC, `level` by name, `msg`, then the bindings such as `runId` and `pipeline`, then the
 * event's fields), or the same lines made readable by pino-pretty. Lines are produced
 * synchronously and handed to `write`, so the CLI can print them above its progress bars.
 *
 * Every line is redacted of the secrets it was given (src/core/redact.ts) after it is serialised,
 * so the message, every field, an error's message, stack and causes are all covered.
 */
import { pino, type Logger as PinoLogger } from 'pino';
import { createRequire } from 'node:module';
import type { LogLevel, Logger } from '../core/component.js';
import { systemClock, type Clock } from '../core/clock.js';
import { redactSecrets, redactToken } from '../core/redact.js';
import { errorFields } from './error-fields.js';
import { ConfigError } from '../core/errors.js';

export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Default pretty. */
  readonly format?: LogFormat;
  /** Colour the pretty lines (the CLI decides: a terminal, no NO_COLOR). Default false. */
  readonly color?: boolean;
  /** Where lines go, each ending in a newline (default: process.stderr). */
  readonly write?: (line: string) => void;
  /** Secrets to mask wherever they appear in a line. */
  readonly redact?: readonly string[];
  readonly clock?: Clock;
  /** Fields added to every line, e.g. `{ runId }`. */
  readonly base?: Record<string, unknown>;
  /**
   * Pretty lines name the pipeline before the message (`INFO: kline-backfill: committed`): for a
   * command that runs several pipelines, whose lines are otherwise alike. JSON lines always carry
   * `pipeline` as a field, so this changes nothing there. Default false.
   */
  readonly showPipeline?: boolean;
}

const require = createRequire(import.meta.url);

/**
 * pino-pretty is loaded on the first pretty line, not at start: it costs about 80 ms to import
 * (measured here), and a run at the default level usually writes no line at all.
 */
function prettyFormatter(color: boolean, showPipeline: boolean): (line: string) => string {
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  return prettyFactory({
    colorize: color,
    singleLine: true,
    // runId is long and the same on every line of a run (the summary shows it); the pipeline tells
    // lines apart only when several run in one command.
    ignore: 'pid,hostname,runId,pipeline',
    translateTime: false,
    errorLikeObjectKeys: ['err'],
    ...(showPipeline ? { messageFormat: (log: Record<string, unknown>, key: string) => (typeof log.pipeline === 'string' ? `${log.pipeline}: ${String(log[key])}` : String(log[key])) } : {}),
  });
}

export interface LeveledLogger extends Logger {
  readonly level: LogLevel;
  isLevelEnabled(level: LogLevel): boolean;
  /** A logger with extra fields on every line. */
  child(fields: Record<string, unknown>): LeveledLogger;
}

/** Top-level values JSON cannot carry as they are: bigints as strings, errors as error fields. */
function portable(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'bigint' || (value instanceof Error && key !== 'err')) {
      out ??= { ...fields };
      out[key] = typeof value === 'bigint' ? value.toString() : errorFields(value);
    }
  }
  return out ?? fields;
}

function wrap(p: PinoLogger<never>, level: LogLevel): LeveledLogger {
  const at =
    (name: LogLevel) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (fields === undefined) p[name](message);
      else p[name](portable(fields), message);
    };
  return {
    level,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    isLevelEnabled: (l) => p.isLevelEnabled(l),
    child: (fields) => wrap(p.child(portable(fields)), level),
  };
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** The level asked for, any case; anything else is refused here, not by pino (a bare Error without a code). */
function levelOf(given: unknown): LogLevel {
  if (given === undefined) return 'info';
  const level = typeof given === 'string' ? (given.toLowerCase() as LogLevel) : undefined;
  if (level !== undefined && LEVELS.includes(level)) return level;
  throw new ConfigError(`createLogger: level ${JSON.stringify(given) ?? String(given)} is not one of ${LEVELS.join(', ')}`, {}, undefined, "give one of them: createLogger({ level: 'info' })");
}

export function createLogger(options: LoggerOptions = {}): LeveledLogger {
  const level = levelOf(options.level);
  if (options.format !== undefined && !LOG_FORMATS.includes(options.format)) {
    // A misspelt 'json' used to give pretty lines silently: a collector then parsed none of them.
    throw new ConfigError(`createLogger: format ${JSON.stringify(options.format) ?? String(options.format)} is not one of ${LOG_FORMATS.join(', ')}`, {}, undefined, "give 'json' for JSON lines or 'pretty' (the default)");
  }
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const clock = options.clock ?? systemClock;
  const secrets = [...new Set(options.redact ?? [])].filter((s) => s.length > 0);
  // Lines are masked after JSON serialisation, where a secret with a quote or a backslash appears
  // escaped: that form is replaced by the escaped redaction, so the line stays valid JSON.
  const escaped = secrets.map((s) => [JSON.stringify(s).slice(1, -1), JSON.stringify(redactToken(s)).slice(1, -1)] as const).filter(([e], i) => e !== secrets[i]);
  const mask =
    secrets.length > 0
      ? (line: string) => escaped.reduce((out, [from, to]) => out.split(from).join(to), redactSecrets(line, secrets))
      : (line: string) => line;
  const pretty = options.format !== 'json';
  let prettify: ((line: string) => string) | undefined;
  const destination = {
    write(json: string): void {
      const line = mask(json);
      if (!pretty) return write(line);
      prettify ??= prettyFormatter(options.color ?? false, options.showPipeline ?? false);
      write(prettify(line));
    },
  };
  const root = pino(
    {
      level,
      // No pid or hostname: a line carries the run's fields, not the machine's.
      base: null,
      timestamp: () => `,"time":"${new Date(clock.now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: (e: unknown) => errorFields(e) },
    },
    destination,
  );
  const logger = wrap(root as unknown as PinoLogger<never>, level);
  return options.base && Object.keys(options.base).length > 0 ? logger.child(options.base) : logger;
}
