/**
 * What every layer needs around a Logger without importing the runtime's implementation (the
 * import arrows forbid it): a silent default for library users and tests, a cheap level check for
 * hot paths, and extra fields on every line.
 */
import type { LogLevel, Logger } from './component.js';

const nothing = (): void => undefined;

/** Drops everything: the default wherever no logger was given. */
export const silentLogger: Logger = {
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
  isLevelEnabled: () => false,
  child: () => silentLogger,
};

/**
 * Whether a line at `level` would be written: check it before building the fields of a per-request
 * event, so a run at the default level pays nothing for debug events. A logger that cannot tell is
 * assumed to write.
 */
export function logsAt(logger: Logger, level: LogLevel): boolean {
  return logger.isLevelEnabled ? logger.isLevelEnabled(level) : true;
}

/** A logger adding `fields` to every line (the logger's own child() when it has one). */
export function withFields(logger: Logger, fields: Record<string, unknown>): Logger {
  if (logger.child) return logger.child(fields);
  const add = (f?: Record<string, unknown>) => ({ ...fields, ...f });
  return {
    debug: (m, f) => logger.debug(m, add(f)),
    info: (m, f) => logger.info(m, add(f)),
    warn: (m, f) => logger.warn(m, add(f)),
    error: (m, f) => logger.error(m, add(f)),
    ...(logger.isLevelEnabled ? { isLevelEnabled: (level: LogLevel) => logger.isLevelEnabled!(level) } : {}),
  };
}
