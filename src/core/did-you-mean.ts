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
    // Case alone is nearer than any real edit, however long the word: `Since` → `since`, and
    // `B.yaml` → `b.yaml` rather than `a.yaml` (also one edit away). Two neighbouring letters
    // swapped (`tabel`, `parqeut`) count as one edit, as a typist makes them.
    const d = c.toLowerCase() === word.toLowerCase() ? 0.5 : swapsTo(word, c) ? 1 : distance(word, c);
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `word` is `c` with two neighbouring characters swapped. */
function swapsTo(word: string, c: string): boolean {
  if (word.length !== c.length) return false;
  let i = 0;
  while (i < word.length && word[i] === c[i]) i++;
  return i < word.length - 1 && word[i] === c[i + 1] && word[i + 1] === c[i] && word.slice(i + 2) === c.slice(i + 2);
}
