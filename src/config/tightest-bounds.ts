/**
 * zod checks a whole number against the safe-integer range besides the schema's own bounds, so
 * `concurrency: 99999999999999999999` broke two bounds, "at most 9007199254740991" and "at most
 * 64": two messages for one mistake, the first of no use. Of the bounds one value breaks on one
 * side, only the tightest is said.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const pathKey = (issue: Issue): string => JSON.stringify(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)));

/** How far a bound of `issue` reaches: smaller is tighter (a maximum as is, a minimum negated). */
function reach(issue: Issue): number | undefined {
  if (issue.code === 'too_big' && issue.origin !== 'array' && issue.origin !== 'string') return Number(issue.maximum);
  if (issue.code === 'too_small' && issue.origin !== 'array' && issue.origin !== 'string') return -Number(issue.minimum);
  return undefined;
}

export function tightestBounds(issues: readonly Issue[]): Issue[] {
  const tightest = new Map<string, Issue>();
  for (const issue of issues) {
    const r = reach(issue);
    if (r === undefined) continue;
    const key = `${issue.code} ${pathKey(issue)}`;
    const held = tightest.get(key);
    if (held === undefined || r < reach(held)!) tightest.set(key, issue);
  }
  return issues.filter((issue) => reach(issue) === undefined || tightest.get(`${issue.code} ${pathKey(issue)}`) === issue);
}
