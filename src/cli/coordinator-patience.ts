/**
 * --coordinator-patience: how long `run` and a batch `worker` wait for their Redis to come back
 * (a restart takes a few seconds) before they stop with QL_COORDINATOR_DOWN. Nothing is sent
 * meanwhile: no request goes out without Redis's admission.
 */
import { timerSecondsMs } from './seconds-option.js';

/** Seconds: a Redis restart (systemd, a failover) takes a few. */
export const DEFAULT_COORDINATOR_PATIENCE_S = 15;

export interface CoordinatorPatienceArgs {
  'coordinator-patience'?: number | undefined;
}

/** The patience asked for (or the default), checked as a timer: seconds for messages, ms to wait. */
export function coordinatorPatience(args: CoordinatorPatienceArgs): { seconds: number; ms: number } {
  const seconds = args['coordinator-patience'] ?? DEFAULT_COORDINATOR_PATIENCE_S;
  return { seconds, ms: timerSecondsMs(seconds, `--coordinator-patience ${seconds}`) };
}
