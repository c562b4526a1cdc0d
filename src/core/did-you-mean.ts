/**
 * The one "did you mean" rule, for pipeline names, YAML keys, component types and commands alike:
 * the nearest candidate by edit distance, offered only when it is near enough to be a typo (a third
 * of the word's length, at least 1, at most 3 edits), so an unrelated word gets no odd suggestion.
 */
import { distance } from 'fastest-levenshtein';

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    // Case alone is one edit away at most, however long the word: `Since` → `since`.
    const d = c.toLowerCase() === word.toLowerCase() ? 1 : distance(word, c);
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
