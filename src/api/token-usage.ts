/**
 * What one token of a pool did in this process, as plain counters another module can read (the run
 * summary, `quotelake quota`, a metrics exporter) without reaching into the pool. The token itself is
 * never here: only its redacted form and the hash its quota file and shared limiter keys use.
 */
export interface TokenUsage {
  /** Position in the pool as configured (0-based): a stable name when two redactions look alike. */
  readonly index: number;
  /** The redacted token (`abcd…`), as src/core/redact.ts writes it. */
  readonly token: string;
  /** First 16 hex digits of sha256(token): the key of its quota file (and of a shared limiter). */
  readonly tokenHash: string;
  readonly plan: string;
  /** HTTP requests sent with this token, per endpoint path. */
  readonly requests: Readonly<Record<string, number>>;
  readonly requestsTotal: number;
  /** Rows (bars, ticks, halt records) received in answers to this token's requests. */
  readonly rows: number;
  /** 429 answers (rate limit, not the daily cap) the service gave this token. */
  readonly rateLimited: number;
  /** Streams that started on this token, and streams handed to it from another. */
  readonly streams: number;
  readonly streamsTakenOver: number;
  /** Streams this token handed to another (its day was used up, or it was held by 429s). */
  readonly streamsHandedOff: number;
  /** Whether today's quota of this token is used up (in this process's view). */
  readonly exhausted: boolean;
}

/** Implemented by a client that spreads work over several tokens. */
export interface TokenUsageSource {
  tokenUsage(): readonly TokenUsage[];
}

/** The per-token counters of `client`, when it is (or wraps) a pool; undefined otherwise. */
export function tokenUsageOf(client: unknown): readonly TokenUsage[] | undefined {
  const source = client as Partial<TokenUsageSource> | undefined;
  return typeof source?.tokenUsage === 'function' ? source.tokenUsage() : undefined;
}
