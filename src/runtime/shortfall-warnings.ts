/**
 * A shortfall (the service delivered less than asked; the run exits 4) is a note of the summary,
 * and a scheduled run with `--quiet` prints no summary: each is said at warn too, so the log of
 * such a run names the series or codes behind its exit code.
 */
import type { Logger } from '../core/component.js';
import type { RunEventsRecorder } from './run-events.js';

export function shortfallsAtWarn(events: RunEventsRecorder, logger: Logger): RunEventsRecorder {
  return {
    ...events,
    shortfall(message, count, stream) {
      events.shortfall(message, count, stream);
      logger.warn(message, { event: 'shortfall' });
    },
  };
}
