/**
 * A notice as a JSON line (terminal.ts, notice): made by the log's own writer, so it has the shape
 * of every log line (level, time, the fields, msg) and the secrets are masked in their JSON-escaped
 * form too. The message loses its "quotelake: " prefix, which a log line does not carry.
 */
import { format as formatMessage } from 'node:util';
import type { Clock } from '../core/clock.js';
import { createLogger } from '../runtime/logger.js';
import type { NoticeLine, Terminal } from './terminal.js';

export function jsonNoticeLine(clock: Clock): NoticeLine {
  return (text, { level = 'warn', ...fields }, secrets) => {
    let line = '';
    const logger = createLogger({ level: 'debug', format: 'json', clock, redact: secrets, write: (l) => (line = l) });
    logger[level](text.replace(/^quotelake( [a-z]+)?: /, ''), fields);
    return line.replace(/\n$/, '');
  };
}

/**
 * --log-format json: the command's notices become JSON lines from here on, and so do Node's own
 * process warnings (a deprecation, a listener leak), which its default printer writes as plain
 * text: the one printer is replaced by a notice (`event: "node-warning"`, its name and code).
 */
export function useJsonNotices(terminal: Terminal, format: string, clock: Clock): void {
  if (format !== 'json') return;
  terminal.jsonNotices(jsonNoticeLine(clock));
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) => {
    terminal.notice(w.message, { event: 'node-warning', name: w.name, ...(w.code !== undefined ? { code: w.code } : {}) });
  });
  // Libraries that print to the console themselves (ioredis: "[WARN] … a password was supplied";
  // BullMQ: a Redis version or eviction policy advice) would write plain text into the JSON lines.
  const library = (level: 'warn' | 'error') => (...args: unknown[]) =>
    terminal.notice(formatMessage(...args).replace(/^\[(WARN|ERROR)\] /, ''), { level, event: 'library-message' });
  console.warn = library('warn');
  console.error = library('error');
}

/** A SIGINT/SIGTERM notice (stopping, stopped, exiting). */
export const SIGNAL_NOTICE = { event: 'signal' } as const;
