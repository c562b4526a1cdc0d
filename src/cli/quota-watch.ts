/**
 * Sources stop cleanly when the daily quota runs out (they note it and end), so the run itself
 * succeeds. The CLI still has to exit 75 with the reset instant: it hands the sources a client that
 * remembers the first QuotaExhaustedError passing through it.
 */
import type { ServiceClient } from '../api/index.js';
import { QuotaExhaustedError } from '../core/errors.js';

export interface QuotaWatch {
  readonly client: ServiceClient;
  /** The first quota error any call raised, if one did. */
  exhausted(): QuotaExhaustedError | undefined;
}

const CALLS = ['kline', 'depthTicks', 'tradeTicks', 'batchKline', 'halts'] as const;

export function watchQuota(inner: ServiceClient): QuotaWatch {
  let seen: QuotaExhaustedError | undefined;
  const wrapped = Object.create(inner) as ServiceClient & Record<string, unknown>;
  for (const name of CALLS) {
    const original = inner[name] as (...a: unknown[]) => Promise<unknown>;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await original.apply(inner, args);
      } catch (e) {
        if (e instanceof QuotaExhaustedError) seen ??= e;
        throw e;
      }
    };
  }
  // Methods reached through the prototype must still run on the real client (ES private fields).
  for (const name of ['quotaStatus', 'requestCounts', 'close'] as const) {
    const original = inner[name] as (...a: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => original.apply(inner, args);
  }
  Object.defineProperty(wrapped, 'plan', { get: () => inner.plan });
  Object.defineProperty(wrapped, 'runId', { get: () => inner.runId });
  return { client: wrapped, exhausted: () => seen };
}
