/**
 * What a backward walk does with the pages it asked for ahead when a page ended elsewhere than the
 * calendar said (a short page, R1, stops above the predicted end; missing bars take it below).
 * Those pages are still answers for this series: an answer to end E holds every bar from its oldest
 * up to E (a short page keeps the newest), so
 * - a page ahead whose end lies above the walk's new end serves it, cut at that end, as long as it
 *   reaches below it (`above`);
 * - a page ahead whose end lies below the new end is where the walk continues once the stretch
 *   between the two is fetched (`below`): that stretch is asked for like a walk's last page above
 *   a floor, then the walk goes on down the chain already in flight.
 * Only the walk's current end moves; pages are still used newest first, so the checkpoint (every bar
 * above `next` delivered) means what it meant.
 */

export interface ChainBreak<P> {
  /** The nearest page ahead ending above the walk's end (to be cut at it), taken out of `ahead`. */
  readonly above?: P;
  /** The nearest end of a page ahead below the walk's end: where the walk resumes the chain. */
  readonly below?: number;
}

/**
 * Called when `ahead` holds no page for `end`: takes out of `ahead` every page ending above `end`
 * (the nearest is returned, the others could only give bars it gives too) and keeps those below.
 */
export function takeChainBreak<P>(ahead: Map<number, P>, end: number): ChainBreak<P> {
  let aboveEnd: number | undefined;
  let below: number | undefined;
  for (const key of ahead.keys()) {
    if (key > end) {
      if (aboveEnd === undefined || key < aboveEnd) aboveEnd = key;
    } else if (below === undefined || key > below) below = key;
  }
  const above = aboveEnd === undefined ? undefined : ahead.get(aboveEnd);
  for (const key of [...ahead.keys()]) if (key > end) ahead.delete(key);
  return { ...(above !== undefined ? { above } : {}), ...(below !== undefined ? { below } : {}) };
}
