/**
 * A small leveled logger writing one line per entry to stderr, as JSON or as readable text. The API
 * layer redacts the token already; `redact` is a second line of defence for any secret it is given.
 */
import type { LogLevel, Logger } from '../core/component.js';
import { systemClock, type Clock } from '../core/clock.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly format?: 'json' | 'pretty';
  /** Where lines go (default: process.stderr). */
  readonly write?: (line: string) => void;
  /** Secrets to mask wherever they appear in a line. */
  readonly redact?: readonly string[];
  readonly clock?: Clock;
  /** Fields added to every line, e.g. `{ runId }`. */
  readonly base?: Record<string, unknown>;
}

/** The project's redacted form of a secret: its first 4 characters and an ellipsis. */
export function redactedForm(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}

function safeJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v instanceof Error ? { name: v.name, message: v.message } : v,
  );
}

function prettyValue(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return safeJson(v) ?? String(v);
}

export interface LeveledLogger extends Logger {
  readonly level: LogLevel;
  /** A logger with extra fields on every line. */
  child(fields: Record<string, unknown>): LeveledLogger;
}

export function createLogger(options: LoggerOptions = {}): LeveledLogger {
  const level = options.level ?? 'info';
  const format = options.format ?? 'pretty';
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const clock = options.clock ?? systemClock;
  // Longest first so a secret that contains another is masked whole.
  const secrets = [...new Set(options.redact ?? [])].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  const base = options.base ?? {};

  const mask = (line: string): string => {
    let out = line;
    for (const s of secrets) out = out.split(s).join(redactedForm(s));
    return out;
  };

  const log = (at: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    const time = new Date(clock.now()).toISOString();
    const all = { ...base, ...(fields ?? {}) };
    let line: string;
    if (format === 'json') {
      line = safeJson({ time, level: at, msg: message, ...all });
    } else {
      const extras = Object.entries(all)
        .map(([k, v]) => `${k}=${prettyValue(v)}`)
        .join(' ');
      line = `${time} ${at.toUpperCase().padEnd(5)} ${message}${extras ? ` ${extras}` : ''}`;
    }
    write(`${mask(line)}\n`);
  };

  return {
    level,
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}
