import { z } from 'zod';
import type { ManualClock } from '../../core/clock.js';
import type { Reply } from '../http/send.js';

const command = z.union([
  z.strictObject({ set: z.string().refine((s) => Number.isFinite(Date.parse(s)), 'not an ISO instant') }),
  z.strictObject({ advanceMs: z.number().finite() }),
]);

const state = (clock: ManualClock): Reply => ({
  status: 200,
  body: { now: new Date(clock.now()).toISOString(), nowMs: clock.now() },
});

/**
 * Admin clock (only when the emulator runs on a manual clock): GET reads it, POST `{"set": ISO}` or
 * `{"advanceMs": n}` moves it. Both answer `{now, nowMs}`.
 */
export function handleClock(method: string, body: string | undefined, clock: ManualClock): Reply {
  if (method === 'GET') return state(clock);
  let doc: unknown;
  try {
    doc = JSON.parse(body ?? '');
  } catch {
    return { status: 400, body: { error: 'body must be JSON: {"set": ISO} or {"advanceMs": n}' } };
  }
  const r = command.safeParse(doc);
  if (!r.success) return { status: 400, body: { error: 'body must be {"set": ISO} or {"advanceMs": n}' } };
  if ('set' in r.data) clock.set(r.data.set);
  else clock.advance(r.data.advanceMs);
  return state(clock);
}
