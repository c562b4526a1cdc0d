/**
 * createClient's and createTokenPool's options, checked for keys they do not take (top level,
 * `retry`, `timeouts`). A JavaScript caller's typo was ignored in silence: `retry: { retries: 0 }`
 * still made 6 attempts. Each list is a record of every key of its type, so the compiler keeps it
 * whole; a message names the function the caller called.
 */
import { ConfigError } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import type { Timeouts } from './http-transport.js';
import type { ClientOptions, RetryOptions } from './types.js';
import type { TokenPoolOptions } from './token-pool.js';

const TOP: Record<keyof ClientOptions, true> = {
  baseUrl: true, token: true, plan: true, plans: true, stateDir: true, rememberSends: true, runId: true, clock: true,
  sleep: true, quotaTimeZone: true, familyOverrides: true, familyLookup: true, timeouts: true, maxResponseBytes: true,
  retry: true, logger: true, onRequest: true, onAdmission: true, marginMs: true, settleBeforeSleep: true,
  quotaBlockSize: true, coordinator: true,
};
// A pool takes its tokens (each with its plan) where a client takes one token and plan.
const POOL: Record<keyof TokenPoolOptions, true> = {
  tokens: true, createMember: true, baseUrl: true, plans: true, stateDir: true, rememberSends: true, runId: true, clock: true,
  sleep: true, quotaTimeZone: true, familyOverrides: true, familyLookup: true, timeouts: true, maxResponseBytes: true,
  retry: true, logger: true, onRequest: true, onAdmission: true, marginMs: true, settleBeforeSleep: true,
  quotaBlockSize: true, coordinator: true,
};
const RETRY: Record<keyof RetryOptions, true> = { attempts: true, baseDelayMs: true, maxDelayMs: true, maxTotalMs: true, maxRateLimitRequeues: true, random: true };
const TIMEOUTS: Record<keyof Timeouts, true> = { connectMs: true, headersMs: true, bodyMs: true };

/** Throws QL_CONFIG naming the first key `options` (or its retry/timeouts) does not take. */
export function checkClientOptionKeys(options: unknown): void {
  checkOptionKeys(options, 'createClient', TOP, 'createClient({ baseUrl, token, plan, stateDir })');
}

/** The same for createTokenPool, whose messages name it (its members are createClients). */
export function checkTokenPoolOptionKeys(options: unknown): void {
  // A client's token and plan, given to a pool, were dropped in silence: each token names its own plan.
  const perToken = ' (a pool takes each token with its plan: tokens: [{ token, plan }, …])';
  checkOptionKeys(options, 'createTokenPool', POOL, 'createTokenPool({ tokens: [{ token, plan }, …], baseUrl, stateDir })', { token: perToken, plan: perToken });
}

function checkOptionKeys(options: unknown, caller: string, top: Record<string, true>, usage: string, explained: Record<string, string> = {}): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigError(`${caller}: its argument must be the options, and was given ` + (options === null ? 'null' : Array.isArray(options) ? 'a list' : options === undefined ? 'nothing' : `a ${typeof options}`), {}, undefined, usage);
  }
  checkKeys(options, '', top, caller, explained);
  const o = options as Record<string, unknown>;
  for (const [name, known] of [['retry', RETRY], ['timeouts', TIMEOUTS]] as const) {
    const value = o[name];
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ConfigError(`${caller}: option ${name} must be an object such as { ${Object.keys(known)[0]}: ... }, and was given ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}`, {}, undefined, `${name} takes ${Object.keys(known).join(', ')}, each optional`);
    }
    checkKeys(value, `${name}.`, known, caller);
  }
}

function checkKeys(value: object, prefix: string, known: Record<string, true>, caller: string, explained: Record<string, string> = {}): void {
  const names = Object.keys(known);
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const near = didYouMean(key, names);
    // The near key alone says enough; without one, the keys there are (a word for a word: `retries`, `attempts`).
    const help = Object.hasOwn(explained, key) ? explained[key]! : near === undefined ? ` (${prefix === '' ? `${caller} takes` : `${prefix.slice(0, -1)} takes`} ${names.join(', ')})` : `; did you mean "${prefix}${near}"?`;
    throw new ConfigError(`${caller}: unknown option ${JSON.stringify(prefix + key)}${help}`, {}, undefined, `correct or remove it: an option ${caller} does not take would be ignored, and the client run without it`);
  }
}
