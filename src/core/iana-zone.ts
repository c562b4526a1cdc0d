/** Whether `zone` is an IANA time zone this runtime knows (Europe/London, UTC), by Intl's own list. */
export function isIanaZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
