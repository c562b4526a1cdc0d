/**
 * How far V8 lets the JavaScript heap grow past what survived the last full collection. A run
 * allocates fast and keeps little (parsed pages live for one batch): left to its default, V8
 * grows the heap to about four times the live set, which is where most of a long backfill's
 * resident memory went (peak 350-387 MB over 5M rows, 63 MB of it live). Doubling it kept the peak
 * under 300 MB for about 3% more CPU; 1.75 times brings a 5M-row backfill's peak to about 10%
 * above a 0.4M-row one's (188 against 173 MB, where doubling gave 195), for 11 full collections
 * instead of 6 (about 1% more CPU, inside the run-to-run spread). Below that the collections
 * multiply (60%: 23 of them, 7% more CPU) for little memory (README, "Performance";
 * docs/performance-log.md).
 *
 * A user who passes their own `--heap-growing-percent` on node's command line keeps it. Node
 * refuses the flag in NODE_OPTIONS (exit 9), so looking there only guards a Node that allows it.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 75;

/** The V8 flag to set, or null when the user's node options already name one. */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  const given = [...execArgv, nodeOptions ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
  return given ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}
