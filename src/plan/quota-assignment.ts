/**
 * What is left of each token's day handed out to the groups of codes its plan covers
 * (covering-groups.ts), each request it has left to one group only. Summing a group's tokens'
 * quota per group counted a token covering several groups (a professional one beside all-us and
 * all-hk ones) toward each: three groups that each fit their tokens' sum may not fit together.
 *
 * A maximum flow (groups -> the tokens covering them -> what each has left), augmented along
 * shortest paths, so a request given to a shared token moves to another when a more constrained
 * group needs that token: the count served today is the most any placement serves, not an
 * estimate. What is not served lies in one set of groups whose tokens are all used up (the cut),
 * and that set is what the plan names: its codes, their requests, and the quota of its tokens.
 */

export interface GroupDemand {
  readonly requests: number;
  /** The tokens (places in the pool) that may serve the group. */
  readonly tokens: readonly number[];
}

export interface QuotaAssignment {
  /** Requests of each group served today, in the groups' order. */
  readonly served: readonly number[];
  /** Requests left over (0 when everything fits today). */
  readonly unserved: number;
  /** When some are left over: the groups they belong to, with every token covering them, all used up. */
  readonly short?: { readonly groups: readonly number[]; readonly tokens: readonly number[]; readonly requests: number; readonly remaining: number };
}

export function assignQuota(groups: readonly GroupDemand[], left: readonly number[]): QuotaAssignment {
  const served = groups.map(() => 0);
  const used = left.map(() => 0);
  // flow[g][t]: requests of group g given to token t.
  const flow = groups.map(() => left.map(() => 0));
  for (;;) {
    const path = shortestPath(groups, left, served, used, flow);
    if (path.end === undefined) {
      const unserved = groups.reduce((a, g, i) => a + g.requests - served[i]!, 0);
      if (unserved === 0) return { served, unserved };
      const inCut = path.groups;
      const tokens = path.tokens;
      return {
        served,
        unserved,
        short: {
          groups: inCut,
          tokens,
          requests: inCut.reduce((a, g) => a + groups[g]!.requests, 0),
          remaining: tokens.reduce((a, t) => a + Math.max(0, left[t]!), 0),
        },
      };
    }
    augment(path.end, path.viaGroup, path.viaToken, groups, left, served, used, flow);
  }
}

interface Search {
  /** A token with room reached from a group with requests unserved; undefined when none is. */
  readonly end: number | undefined;
  /** The group each reached token was reached from. */
  readonly viaGroup: readonly number[];
  /** The token each reached group was reached from (-2: it has requests unserved itself). */
  readonly viaToken: readonly number[];
  /** Groups and tokens reached (with no end: the cut's side of the unserved requests). */
  readonly groups: number[];
  readonly tokens: number[];
}

/** Breadth first from the groups with requests unserved: to a covering token, and from a token back to a group it serves. */
function shortestPath(groups: readonly GroupDemand[], left: readonly number[], served: readonly number[], used: readonly number[], flow: readonly number[][]): Search {
  const viaGroup = left.map(() => -1);
  const viaToken = groups.map(() => -1);
  const queue: number[] = [];
  groups.forEach((g, i) => {
    if (served[i]! < g.requests) {
      viaToken[i] = -2;
      queue.push(i);
    }
  });
  const reachedGroups: number[] = [];
  const reachedTokens: number[] = [];
  while (queue.length > 0) {
    const g = queue.shift()!;
    reachedGroups.push(g);
    for (const t of groups[g]!.tokens) {
      if (viaGroup[t] !== -1) continue;
      viaGroup[t] = g;
      reachedTokens.push(t);
      if (used[t]! < left[t]!) return { end: t, viaGroup, viaToken, groups: reachedGroups, tokens: reachedTokens };
      for (let other = 0; other < groups.length; other++) {
        if (viaToken[other] === -1 && flow[other]![t]! > 0) {
          viaToken[other] = t;
          queue.push(other);
        }
      }
    }
  }
  return { end: undefined, viaGroup, viaToken, groups: reachedGroups.sort((a, b) => a - b), tokens: reachedTokens.sort((a, b) => a - b) };
}

/** Gives the path's group the most it can take along the path: a token's room, a moved share, or its own unserved requests. */
function augment(end: number, viaGroup: readonly number[], viaToken: readonly number[], groups: readonly GroupDemand[], left: readonly number[], served: number[], used: number[], flow: number[][]): void {
  let amount = left[end]! - used[end]!;
  for (let g = viaGroup[end]!; ; ) {
    const t = viaToken[g]!;
    if (t === -2) {
      amount = Math.min(amount, groups[g]!.requests - served[g]!);
      break;
    }
    amount = Math.min(amount, flow[g]![t]!);
    g = viaGroup[t]!;
  }
  used[end]! += amount;
  let t = end;
  for (let g = viaGroup[end]!; ; ) {
    flow[g]![t]! += amount;
    const from = viaToken[g]!;
    if (from === -2) {
      served[g]! += amount;
      return;
    }
    // The group gives up that much of `from`, which the group before it on the path takes.
    flow[g]![from]! -= amount;
    t = from;
    g = viaGroup[from]!;
  }
}
