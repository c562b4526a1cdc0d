/**
 * Injected waiting, so rate-limit and retry waits follow the same Clock as everything else.
 * Production waits on real timers; tests pass a sleep that moves a virtual clock instead.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { VirtualClock } from '../core/clock.js';
import { AbortedError } from '../core/errors.js';

/** Waits `ms` milliseconds (of the injected clock) or rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const systemSleep: Sleep = async (ms, signal) => {
  try {
    await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
};

/**
 * A sleep for a virtual clock (ManualClock or any clock with `set`): it lets pending work run, then
 * moves the clock to at least `start + ms`. Concurrent sleeps compose as a maximum, never as a sum.
 */
export function manualSleep(clock: VirtualClock): Sleep {
  return async (ms, signal) => {
    const target = clock.now() + Math.max(0, ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw abortReason(signal);
    if (clock.now() < target) clock.set(target);
  };
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof AbortedError) return reason;
  return new AbortedError(reason instanceof Error ? `aborted: ${reason.message}` : 'aborted', );
}
