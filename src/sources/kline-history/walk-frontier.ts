/**
 * How far a K-line series has gone, for mergeByFrontier: a backward walk's next end (Unix seconds),
 * negated so that an older end counts as further along. Batches with no walk in their checkpoint
 * (a completed walk, a stock's newest bars, a rejected answer) say nothing: the series keeps its
 * place, and soon ends.
 */
import type { Batch } from '../../core/component.js';
import { readPosition } from './kline-position.js';

export function walkFrontier(batch: Batch<unknown>): number | undefined {
  if (batch.checkpoint === undefined) return undefined;
  const walk = readPosition(batch.checkpoint).walk;
  return walk === undefined ? undefined : -walk.next;
}
