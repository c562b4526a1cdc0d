/**
 * The requests of one call of several (a snapshot round's families and chunks, a batch's chunks)
 * are waited for together. Any failure but the daily cap is thrown as it came. The cap reached
 * part-way is thrown with what the other requests received (QuotaExhaustedError.partial): their
 * answers were charged, and a snapshot cannot be asked for again later.
 */
import { QuotaExhaustedError } from '../core/errors.js';

export async function settleRequests<R>(requests: readonly Promise<void>[], result: R, received: (result: R) => boolean): Promise<void> {
  const settled = await Promise.allSettled(requests);
  let cap: QuotaExhaustedError | undefined;
  for (const s of settled) {
    if (s.status === 'fulfilled') continue;
    if (!(s.reason instanceof QuotaExhaustedError)) throw s.reason;
    cap ??= s.reason;
  }
  if (cap !== undefined) throw received(result) ? cap.withPartial(result) : cap;
}
