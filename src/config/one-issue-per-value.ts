/**
 * zod runs a string's length check on any value that has a length, after its type check failed:
 * `stateDir: []` was said twice, "expected a string, got a list" and "a list of 0 items: must
 * have at least 1 item", the second of a list the setting never takes. And an empty NDJSON path was
 * "must be at least 1 character" beside the sink's own words for it. One mistake, one message:
 * where a value has the wrong type only that is said, and where a check of our own explains a
 * value, zod's bare length bound on it is left out.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const pathKey = (issue: Issue): string => JSON.stringify(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)));

/** A text's least length, such as `.min(1)`. */
const isShortText = (issue: Issue): boolean => issue.code === 'too_small' && issue.origin === 'string';

export function oneIssuePerValue(issues: readonly Issue[]): Issue[] {
  const mistyped = new Set(issues.filter((i) => i.code === 'invalid_type').map(pathKey));
  const explained = new Set(issues.filter((i) => i.code === 'custom').map(pathKey));
  return issues.filter((issue) => {
    if (issue.code === 'invalid_type') return true;
    if (mistyped.has(pathKey(issue))) return false;
    return !(isShortText(issue) && explained.has(pathKey(issue)));
  });
}
