import { didYouMean } from './did-you-mean.js';

/** Whether `zone` is an IANA time zone this runtime knows (Europe/London, UTC), by Intl's own list. */
export function isIanaZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let zones: readonly string[] | undefined;

/** The nearest zone Intl knows to a mistyped one (`America/New_Yrok`), if one is near enough to be a typo. */
export function nearestIanaZone(zone: string): string | undefined {
  // Intl lists the canonical zones without UTC, the one most often written.
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone')];
  return didYouMean(zone, zones);
}

/** `; did you mean "Asia/Shanghai"?` for a mistyped zone, else ''. */
export function zoneGuess(zone: unknown): string {
  const near = typeof zone === 'string' ? nearestIanaZone(zone) : undefined;
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** What is wrong with a value that is no zone (a schema's message), with the zone it resembles when there is one. */
export function notAZone(zone: unknown): string {
  return `is not an IANA time zone (e.g. UTC, Asia/Shanghai)${zoneGuess(zone)}`;
}
