/**
 * Slices of one series each → slices of several codes: the pieces of one interval over the same
 * partition and span go together while their planned requests stay within a budget.
 *
 * Why: a slice is a fetch and a commit, each a run of the pipeline, and every commit into a
 * partition rewrites what the partition already holds (compaction). One series per slice made a
 * partition of N codes N commits, each rewriting the earlier codes' rows, and a 1,000-code lake a
 * million jobs a year. The budget bounds what a slice holds in memory until its commit (500 bars
 * per request at most) and what a killed worker fetches again.
 */
import type { Interval } from '../core/records.js';

export interface SlicePiece {
  readonly code: string;
  readonly interval: Interval;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly partition: string;
  /** Requests the piece needs, as planned. */
  readonly requests: number;
}

export interface GroupedPiece {
  readonly codes: string[];
  readonly interval: Interval;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly partition: string;
  /** Grows as codes join. */
  requests: number;
}

/** Default budget: 1.6 s of a professional plan (20 requests/s), at most 16,000 bars held per slice. */
export const SLICE_REQUESTS = 32;

/**
 * Groups in order of first appearance; a piece over the budget on its own stays alone. A whole
 * stock series (`partition: 'series'`) is never grouped: its span is not a partition's.
 */
export function groupSlices(pieces: readonly SlicePiece[], budget = SLICE_REQUESTS): GroupedPiece[] {
  const open = new Map<string, GroupedPiece>();
  const out: GroupedPiece[] = [];
  for (const p of pieces) {
    const key = p.partition === 'series' ? undefined : JSON.stringify([p.interval, p.partition, p.fromMs, p.untilMs]);
    const current = key === undefined ? undefined : open.get(key);
    if (current !== undefined && current.requests + p.requests <= budget) {
      current.codes.push(p.code);
      current.requests += p.requests;
      continue;
    }
    const group: GroupedPiece = { codes: [p.code], interval: p.interval, fromMs: p.fromMs, untilMs: p.untilMs, partition: p.partition, requests: p.requests };
    out.push(group);
    if (key !== undefined) open.set(key, group);
  }
  return out;
}
