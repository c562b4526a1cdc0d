/**
 * JSON text with every object's keys sorted by code unit (never by locale): equal for equal values
 * however their keys were ordered, on every host. What a hash or a comparison of settings or
 * schemas written by different hands needs.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
