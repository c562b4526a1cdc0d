/** Each token of a pool in the run summary: what it sent and received, and what is left of its day. */
import type { TokenPool } from '../api/index.js';
import { n } from './progress/progress-figures.js';

export interface TokenSummary {
  /** Redacted (`abcd…`); `tokenHash` tells two alike apart and names its quota file. */
  readonly token: string;
  readonly tokenHash: string;
  readonly plan: string;
  readonly requests: number;
  readonly rows: number;
  /** 429 answers (not the daily cap) this token got. */
  readonly rateLimited: number;
  readonly quota: { readonly used: number; readonly limit: number; readonly left: number; readonly resetAt: string };
  readonly exhausted: boolean;
  /** Streams it started, took over from another token, and handed to another. */
  readonly streams: { readonly started: number; readonly takenOver: number; readonly handedOff: number };
}

export async function tokenSummaries(pool: TokenPool): Promise<TokenSummary[]> {
  const quotas = await pool.tokenQuotas();
  return pool.tokenUsage().map((u, i) => {
    const q = quotas[i]!;
    return {
      token: u.token,
      tokenHash: u.tokenHash,
      plan: u.plan,
      requests: u.requestsTotal,
      rows: u.rows,
      rateLimited: u.rateLimited,
      quota: { used: q.used, limit: q.limit, left: q.remaining, resetAt: q.resetAt.toISOString() },
      exhausted: u.exhausted,
      streams: { started: u.streams, takenOver: u.streamsTakenOver, handedOff: u.streamsHandedOff },
    };
  });
}

/**
 * One summary row per token, e.g. `token 1  abcd… [1a2b3c4d] professional: 240 requests, 1,200 rows
 * answered, quota left …`. Rows as its answers held them: a bar two pages repeat counts in each, so
 * the tokens' sum may pass the dataset's received.
 */
export function renderTokenSummaries(tokens: readonly TokenSummary[]): [string, string][] {
  return tokens.map((t, i) => {
    const quota = Number.isFinite(t.quota.limit) ? `quota left ${n(t.quota.left)} of ${n(t.quota.limit)}` : 'no daily cap';
    const moved = [
      t.streams.takenOver > 0 ? `took over ${n(t.streams.takenOver)} stream${t.streams.takenOver === 1 ? '' : 's'}` : '',
      t.streams.handedOff > 0 ? `handed off ${n(t.streams.handedOff)}` : '',
      t.rateLimited > 0 ? `${n(t.rateLimited)} rate-limit answers` : '',
      t.exhausted ? 'day used up' : '',
    ].filter((x) => x !== '');
    return [
      `token ${i + 1}`,
      `${t.token} [${t.tokenHash.slice(0, 8)}] ${t.plan}: ${n(t.requests)} requests, ${n(t.rows)} rows answered, ${quota}${moved.length > 0 ? `; ${moved.join(', ')}` : ''}`,
    ];
  });
}
