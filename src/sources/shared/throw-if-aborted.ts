import { AbortedError } from '../../core/errors.js';

/** Stops a source between requests once the run's signal is aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    throw reason instanceof AbortedError ? reason : new AbortedError();
  }
}
