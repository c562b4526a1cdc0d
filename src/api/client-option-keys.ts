/**
 * createClient's options, checked for keys it does not take (top level, `retry`, `timeouts`). A
 * JavaScript caller's typo was ignored in silence: `retry: { retries: 0 }` still made 6 attempts.
 * Each list is a record of every key of its type, so the compiler keeps it whole.
 */
import { ConfigError } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import type { Timeouts } from './http-transport.js';
import type { ClientOptions, RetryOptions } from './types.js';

const TOP: Record<keyof ClientOptions, true> = {
  baseUrl: true, token: true, plan: true, plans: true, stateDir: true, rememberSends: true, runId: true, clock: true,
  sleep: true, quotaTimeZone: true, familyOverrides: true, familyLookup: true, timeouts: true, maxResponseBytes: true,
  retry: true, logger: true, onRequest: true, onAdmission: true, marginMs: true, settleBeforeSleep: true,
  quotaBlockSize: true, coordinator: true,
};
const RETRY: Record<keyof RetryOptions, true> = { attempts: true, baseDelayMs: true, maxDelayMs: true, maxTotalMs: true, maxRateLimitRequeues: true, random: true };
const TIMEOUTS: Record<keyof Timeouts, true> = { connectMs: true, headersMs: true, bodyMs: true };

/** Throws QL_CONFIG naming the first key `options` (or its retry/timeouts) does not take. */
export function checkClientOptionKeys(options: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigError('createClient: its argument must be the options, and was given ' + (options === null ? 'null' : Array.isArray(options) ? 'a list' : options === undefined ? 'nothing' : `a ${typeof options}`), {}, undefined, "createClient({ baseUrl, token, plan, stateDir })");
  }
  checkKeys(options, '', TOP);
  const o = options as Record<string, unknown>;
  for (const [name, known] of [['retry', RETRY], ['timeouts', TIMEOUTS]] as const) {
    const value = o[name];
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ConfigError(`createClient: option ${name} must be an object such as { ${Object.keys(known)[0]}: ... }, and was given ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}`, {}, undefined, `${name} takes ${Object.keys(known).join(', ')}, each optional`);
    }
    checkKeys(value, `${name}.`, known);
  }
}

function checkKeys(value: object, prefix: string, known: Record<string, true>): void {
  const names = Object.keys(known);
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const near = didYouMean(key, names);
    // The near key alone says enough; without one, the keys there are (a word for a word: `retries`, `attempts`).
    const help = near === undefined ? ` (${prefix === '' ? 'createClient takes' : `${prefix.slice(0, -1)} takes`} ${names.join(', ')})` : `; did you mean "${prefix}${near}"?`;
    throw new ConfigError(`createClient: unknown option ${JSON.stringify(prefix + key)}${help}`, {}, undefined, 'correct or remove it: an option createClient does not take would be ignored, and the client run without it');
  }
}
