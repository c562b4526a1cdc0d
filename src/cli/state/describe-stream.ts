/**
 * One checkpoint as an operator reads it: what series it is, how far it got (UTC, and the
 * product's local time where its bars follow a zone), and where its rows are in the lake. The
 * position as saved is kept beside it (`position`), so nothing is hidden by the reading.
 */
import { DateTime } from 'luxon';
import { findProduct } from '../../catalog/index.js';
import type { Checkpoint } from '../../core/component.js';
import { readPosition } from '../../sources/kline-history/kline-position.js';
import { outputPath } from './output-path.js';

export interface Instant {
  /** ISO-8601 UTC. */
  readonly utc: string;
  readonly epochMs: number;
  /** The same instant in the product's zone, when it has one other than UTC. */
  readonly local?: string;
  readonly zone?: string;
}

export interface StreamState {
  /** The checkpoint key: `kline/<code>/<interval>`, `halt/<exchange>`, or a snapshot dataset. */
  readonly stream: string;
  readonly dataset: string;
  readonly code?: string;
  readonly interval?: string;
  readonly exchange?: string;
  /**
   * How far the stream got: K-lines the open time of the newest final bar held past a completed
   * walk (null during a first backfill's walk: see `walk.top`); snapshots the last fetch.
   */
  readonly watermark: Instant | null;
  /** K-lines: the oldest bar held. */
  readonly low?: Instant | null;
  /**
   * K-lines: a backward walk in progress (a backfill that has not reached `since` yet): the next end
   * it asks for, the floor it stops at, and `top`, the newest final bar it delivered (the lake holds
   * the walk's bars from `low` up to it; it becomes the watermark once the walk completes).
   */
  readonly walk?: { readonly next: Instant; readonly floor: Instant; readonly top?: Instant };
  /** K-lines: where the service's history of the series begins, when a walk found it. */
  readonly begins?: Instant;
  /** Halts: announcements held, and how many the service listed at the last run. */
  readonly seen?: number;
  readonly total?: number;
  /** Snapshots: the round number of the last fetch. */
  readonly round?: number;
  /** The folder its rows are in (K-lines: rows of every code of the interval, the code a column); `stdout` for a checkpointed NDJSON stream. */
  readonly lake: string;
  readonly position: Readonly<Record<string, unknown>>;
}

export function instant(ms: number, zone?: string): Instant {
  const utc = new Date(ms).toISOString().replace('.000Z', 'Z');
  if (zone === undefined || zone === 'UTC') return { utc, epochMs: ms };
  const local = DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
  return { utc, epochMs: ms, local, zone };
}

export function describeStream(checkpoint: Checkpoint, outputDir: string): StreamState {
  const { stream, position } = checkpoint;
  const [dataset = stream, ...rest] = stream.split('/');
  if (dataset === 'kline' && rest.length === 2) {
    const [code, interval] = rest as [string, string];
    const zone = findProduct(code)?.gridZone;
    const p = readPosition(checkpoint);
    const at = (s: number) => instant(s * 1000, zone);
    return {
      stream,
      dataset,
      code,
      interval,
      watermark: p.watermark === null ? null : at(p.watermark),
      low: p.low === null ? null : at(p.low),
      ...(p.walk ? { walk: { next: at(p.walk.next), floor: at(p.walk.floor), ...(p.walk.top !== null ? { top: at(p.walk.top) } : {}) } } : {}),
      ...(p.begins !== undefined ? { begins: at(p.begins) } : {}),
      lake: outputPath(outputDir, 'kline', `interval=${interval}`),
      position,
    };
  }
  if (dataset === 'halt' && rest.length === 1) {
    const seen = position.seen;
    return {
      stream,
      dataset,
      exchange: rest[0]!,
      watermark: null,
      seen: typeof seen === 'object' && seen !== null ? Object.keys(seen).length : 0,
      ...(typeof position.total === 'number' ? { total: position.total } : {}),
      lake: outputPath(outputDir, 'halt', `exchange=${rest[0]!}`),
      position,
    };
  }
  const fetchedAt = position.fetchedAt;
  return {
    stream,
    dataset,
    watermark: typeof fetchedAt === 'number' && Number.isFinite(fetchedAt) ? instant(fetchedAt) : null,
    ...(typeof position.round === 'number' ? { round: position.round } : {}),
    lake: outputPath(outputDir, dataset),
    position,
  };
}
