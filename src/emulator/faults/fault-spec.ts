/**
 * Fault injection spec, e.g. `latency=200ms@0.1,5xx=0.05,drop=0.02,truncate=0.02,429=0.05,drip=20ms@0.01`
 * and the other transient failures of decisions R3: `504=0.02,429-untraced=0.05,halt-busy=0.1,retry-after=0.5`.
 * Rates are probabilities 0..1 per request. `latency` and `drip` take a duration (`ms` or `s`) and an
 * optional `@rate` (default 1). Everything is off unless named.
 */
import { ConfigError } from '../../core/errors.js';

export interface FaultSpec {
  /** Added delay before a normal answer. */
  latency: { ms: number; rate: number };
  /** HTTP 502 or 503 instead of an answer. */
  http5xx: number;
  /** Socket destroyed before any response byte. */
  drop: number;
  /** Body cut in the middle of the JSON (Content-Length honest for the cut body). */
  truncate: number;
  /** A spurious ret 429 (suspension: HTTP 500 rate limit). */
  spurious429: number;
  /** Body written in small chunks with this pause between them. */
  drip: { ms: number; rate: number };
  /** HTTP 504 instead of an answer. */
  http504: number;
  /** A spurious ret 429 whose trace is not echoed (field left out or empty); suspension: as `429`. */
  untraced429: number;
  /** Suspension only: HTTP 500 saying the service is temporarily unavailable (busy); passing, unlike `429`. */
  haltBusy: number;
  /** A `Retry-After` header (delta-seconds or HTTP-date, 0 and past dates included) on 429, 503 and busy answers. */
  retryAfter: number;
}

export const NO_FAULTS: FaultSpec = Object.freeze({
  latency: { ms: 0, rate: 0 },
  http5xx: 0,
  drop: 0,
  truncate: 0,
  spurious429: 0,
  drip: { ms: 0, rate: 0 },
  http504: 0,
  untraced429: 0,
  haltBusy: 0,
  retryAfter: 0,
});

/** A ConfigError (code QL_CONFIG), as every option a library caller can get wrong. */
export class FaultSpecError extends ConfigError {
  constructor(
    readonly part: string,
    reason: string,
  ) {
    super(`invalid fault spec part "${part}": ${reason}`, {}, undefined, 'README, "Faults", lists the parts a fault spec takes');
  }
}

const DEFAULT_DRIP_MS = 20;

export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = structuredClone(NO_FAULTS) as FaultSpec;
  const seen = new Set<string>();
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new FaultSpecError(part, 'expected name=value');
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (seen.has(name)) throw new FaultSpecError(part, `"${name}" given twice`);
    seen.add(name);
    switch (name) {
      case 'latency':
        spec.latency = parseTimed(part, value, undefined);
        break;
      case 'drip':
        spec.drip = parseTimed(part, value, DEFAULT_DRIP_MS);
        break;
      case '5xx':
        spec.http5xx = parseRate(part, value);
        break;
      case 'drop':
        spec.drop = parseRate(part, value);
        break;
      case 'truncate':
        spec.truncate = parseRate(part, value);
        break;
      case '429':
        spec.spurious429 = parseRate(part, value);
        break;
      case '504':
        spec.http504 = parseRate(part, value);
        break;
      case '429-untraced':
        spec.untraced429 = parseRate(part, value);
        break;
      case 'halt-busy':
        spec.haltBusy = parseRate(part, value);
        break;
      case 'retry-after':
        spec.retryAfter = parseRate(part, value);
        break;
      default:
        throw new FaultSpecError(
          part,
          `unknown fault "${name}" (known: latency, 5xx, 504, drop, truncate, 429, 429-untraced, halt-busy, retry-after, drip)`,
        );
    }
  }
  return spec;
}

export function isFaultFree(spec: FaultSpec): boolean {
  return (
    spec.latency.rate === 0 &&
    spec.http5xx === 0 &&
    spec.drop === 0 &&
    spec.truncate === 0 &&
    spec.spurious429 === 0 &&
    spec.drip.rate === 0 &&
    spec.http504 === 0 &&
    spec.untraced429 === 0 &&
    spec.haltBusy === 0
  );
}

function parseRate(part: string, value: string): number {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) throw new FaultSpecError(part, `rate "${value}" is not a number`);
  const rate = Number(value);
  if (!(rate >= 0 && rate <= 1)) throw new FaultSpecError(part, `rate ${value} is outside 0..1`);
  return rate;
}

/** `200ms`, `1.5s`, `200ms@0.1`, or (drip only) `0.01` meaning the default pause at that rate. */
function parseTimed(part: string, value: string, defaultMs: number | undefined): { ms: number; rate: number } {
  const at = value.indexOf('@');
  const durationText = at < 0 ? value : value.slice(0, at);
  const rateText = at < 0 ? undefined : value.slice(at + 1);
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(durationText);
  if (m) {
    const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
    if (ms > 60_000) throw new FaultSpecError(part, `duration ${durationText} is over 60s`);
    return { ms, rate: rateText === undefined ? 1 : parseRate(part, rateText) };
  }
  // A bare number is drip's rate; anything else (`-5ms`, `20 sec`) was meant as a duration and is named as one.
  if (defaultMs !== undefined && at < 0 && /^[\d.]+$/.test(value)) return { ms: defaultMs, rate: parseRate(part, value) };
  throw new FaultSpecError(part, `duration "${durationText}" must look like 200ms or 1.5s${defaultMs !== undefined && at < 0 ? ` (or a rate alone, as in ${part.slice(0, part.indexOf('='))}=0.01)` : ''}`);
}
