/**
 * Splitting code lists into requests the service will serve whole: at most the plan's code cap
 * (Free: 5, W9) and a request-target under the 8 KiB budget, measured on the real encoded URL.
 */

/** The emulator (and the service's front end) answer 414 above this many bytes of request-target. */
export const URL_BUDGET_BYTES = 8192;

/** Length in bytes of a GET request-target built the way the client sends it. */
export function requestTargetLength(basePath: string, endpoint: string, token: string, query: string): number {
  return Buffer.byteLength(getTarget(basePath, endpoint, token, query), 'utf8');
}

export function getTarget(basePath: string, endpoint: string, token: string, query: string): string {
  return `${basePath}${endpoint}?token=${encodeURIComponent(token)}&query=${encodeURIComponent(query)}`;
}

/**
 * Greedy packing in input order. `measure(chunk)` returns the request-target length for a chunk;
 * a single code that alone exceeds the budget still gets its own request (the server will say 414).
 */
export function splitByCapAndBudget<T>(
  items: readonly T[],
  cap: number | null,
  measure: ((chunk: readonly T[]) => number) | null,
  budget = URL_BUDGET_BYTES,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const item of items) {
    const next = [...current, item];
    const overCap = cap !== null && next.length > cap;
    const overBudget = measure !== null && current.length > 0 && measure(next) > budget;
    if (overCap || overBudget) {
      chunks.push(current);
      current = [item];
    } else {
      current = next;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
