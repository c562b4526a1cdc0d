/**
 * The logger of a slice's fetch run. A stop aborts that run, whose own words (`run aborted; the rows
 * written so far are kept, and the next run delivers the whole window again`) are about its scratch
 * folder, which is removed, not the lake: the worker says what the stop left (`slice put back`).
 */
import type { Logger } from '../../core/component.js';

const ABOUT_THE_SCRATCH_RUN: ReadonlySet<unknown> = new Set(['run-stopped']);

export function sliceFetchLogger(logger: Logger): Logger {
  const kept = (fields?: Record<string, unknown>): boolean => !ABOUT_THE_SCRATCH_RUN.has(fields?.event);
  return {
    debug: (message, fields) => (kept(fields) ? logger.debug(message, fields) : undefined),
    info: (message, fields) => (kept(fields) ? logger.info(message, fields) : undefined),
    warn: (message, fields) => (kept(fields) ? logger.warn(message, fields) : undefined),
    error: (message, fields) => (kept(fields) ? logger.error(message, fields) : undefined),
    ...(logger.isLevelEnabled ? { isLevelEnabled: (level) => logger.isLevelEnabled!(level) } : {}),
    ...(logger.child ? { child: (fields) => sliceFetchLogger(logger.child!(fields)) } : {}),
  };
}
