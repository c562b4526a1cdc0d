/**
 * trading-halts: suspension records of SSE, NYSE and NASDAQ, the whole last year per exchange in
 * one request (or paged, S1), with a generous timeout and one request per minute per exchange
 * (the client's limiter). Incremental: a record is written only when its key (exchange, symbol,
 * halt start, publication time) is new or its content changed; a second run writes nothing.
 * Pair it with the normalize-halts transform.
 */
import * as z from 'zod';
import type { HaltExchange, ServiceClient } from '../../api/index.js';
import type { Batch, Checkpoint, RunContext, Source } from '../../core/component.js';
import type { ComponentEnv, SourceDefinition } from '../../core/definition.js';
import { QuotaExhaustedError } from '../../core/errors.js';
import type { RawHalt } from '../../core/records.js';
import type { WireHaltRecord } from '../../core/wire.js';
import type { SourcePlan, SourcePlanner } from '../../core/plan-types.js';
import { mergeStreams } from '../shared/merge-streams.js';
import { reported, requestReporter, type RequestReporter } from '../shared/request-reporter.js';
import { serviceClient } from '../shared/service-client.js';
import { throwIfAborted } from '../shared/throw-if-aborted.js';
import { listedOnce } from '../shared/config-parts.js';
import { haltContentHash, haltKey } from './halt-key.js';
import { withoutEchoedSecret } from './echoed-secret.js';
import { ExchangeRefusals } from './exchange-refusals.js';

const EXCHANGES = ['sse', 'nyse', 'nasdaq'] as const;

export const tradingHaltsConfigSchema = z.strictObject({
  // As for codes and intervals: an exchange listed twice is pointed at (it is fetched once anyway).
  exchanges: listedOnce(z.array(z.enum(EXCHANGES)).min(1), 'exchanges')
    .default([...EXCHANGES])
    .describe('Exchanges to fetch: sse, nyse, nasdaq (default all three).'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('Fetch in pages of this many records (the service\'s `page` and `size`); default the whole year in one request. Pages are one minute apart per exchange.'),
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(120_000).describe('Time-out of one (possibly large) answer.'),
});

export type TradingHaltsConfig = z.infer<typeof tradingHaltsConfigSchema>;

/** Checkpoint of `halt/<exchange>`: key hash → content hash of every record of the last answer. */
interface HaltPosition {
  readonly seen: Readonly<Record<string, string>>;
  readonly total: number;
}

function readPosition(cp: Checkpoint | undefined): HaltPosition {
  const seen = cp?.position.seen;
  const total = cp?.position.total;
  return {
    seen: seen !== null && typeof seen === 'object' ? (seen as Record<string, string>) : {},
    total: typeof total === 'number' ? total : 0,
  };
}

async function fetchAll(
  client: ServiceClient,
  reporter: RequestReporter,
  exchange: HaltExchange,
  config: TradingHaltsConfig,
  ctx: RunContext,
): Promise<{ records: WireHaltRecord[]; totalCount: number; grewBy: number }> {
  if (config.pageSize === undefined) {
    const r = await reported(reporter, (signal) => client.halts(exchange, { timeoutMs: config.timeoutMs }, signal), `halt/${exchange}`);
    return { records: r.data, totalCount: r.totalCount, grewBy: 0 };
  }
  const records: WireHaltRecord[] = [];
  const keys = new Set<string>();
  let totalCount = 0;
  let firstCount: number | undefined;
  for (let page = 1; ; page++) {
    throwIfAborted(ctx.signal);
    const r = await reported(reporter, (signal) => client.halts(exchange, { page, size: config.pageSize, timeoutMs: config.timeoutMs }, signal), `halt/${exchange}`);
    records.push(...r.data);
    for (const record of r.data) keys.add(haltKey(exchange, record));
    totalCount = r.totalCount;
    firstCount ??= r.totalCount;
    const pages = r.totalPages ?? Math.ceil(r.totalCount / config.pageSize);
    // Every record the service counts is held: a service that ignores page and size (spec 4.5
    // rule 2) answered the whole year at once, and another page would only repeat it.
    if (page >= pages || r.data.length === 0 || keys.size >= r.totalCount) break;
    // The first answer tells the page count the plan could only guess: progress follows it.
    reporter.replan(`halt/${exchange}`, pages - page);
  }
  // Records announced while paging push older ones across page boundaries: up to that many may be
  // on no page this time (the next run's first page has them).
  return { records, totalCount, grewBy: Math.max(0, totalCount - (firstCount ?? totalCount)) };
}

class TradingHaltsSource implements Source<RawHalt> {
  constructor(
    private readonly config: TradingHaltsConfig,
    private readonly env: ComponentEnv,
  ) {}

  read(ctx: RunContext, from: ReadonlyMap<string, Checkpoint>): AsyncIterable<Batch<RawHalt>> {
    const client = serviceClient(this.env, 'trading-halts');
    const redact = client.redact?.bind(client);
    const reporter = requestReporter(client, ctx.events, ctx.signal);
    const exchanges = [...new Set(this.config.exchanges)];
    const config = this.config;
    const refusals = new ExchangeRefusals(exchanges.length, (exchange, error, othersDelivered) => {
      // Dropping the exchange is the advice for a refusal that will come every time (a plan that
      // does not cover it), never for a service that was busy or down past the retries.
      const advice = error.retryable ? '' : ` (a token whose plan does not cover ${exchange} is refused every time: drop it from exchanges)`;
      const kept = othersDelivered ? "the other exchanges' records are kept" : 'no exchange was delivered, so nothing is written';
      ctx.events.shortfall?.(`trading-halts ${exchange}: not delivered: ${error.message}; ${kept} and the next run asks again${advice}`);
    });
    const makers = exchanges.map((exchange) => async function* (): AsyncGenerator<Batch<RawHalt>> {
      const stream = `halt/${exchange}`;
      const before = readPosition(from.get(stream));
      reporter.plan(stream, config.pageSize === undefined ? 1 : Math.max(1, Math.ceil(before.total / config.pageSize)));
      let fetched: { records: WireHaltRecord[]; totalCount: number; grewBy: number };
      try {
        fetched = await fetchAll(client, reporter, exchange, config, ctx);
        reporter.finish(stream);
      } catch (error) {
        if (refusals.absorb(exchange, error)) return;
        refusals.endedOtherwise();
        if (!(error instanceof QuotaExhaustedError)) throw error;
        ctx.events.stoppedAtQuota?.();
        ctx.events.note?.(`trading-halts ${exchange}: daily request quota used up; run again after ${error.resetAt.toISOString()}`);
        return;
      }
      refusals.deliveredOne();
      const fetchedAtMs = ctx.clock.now();
      const seen: Record<string, string> = {};
      const out: RawHalt[] = [];
      for (const record of fetched.records) {
        const key = haltKey(exchange, record);
        const hash = haltContentHash(record);
        if (seen[key] === hash) continue; // the same record twice (a page boundary moved)
        seen[key] = hash;
        if (before.seen[key] !== hash) out.push(withoutEchoedSecret({ exchange, record, fetchedAtMs }, redact));
      }
      const unique = Object.keys(seen).length;
      const missing = fetched.totalCount - unique;
      if (missing > fetched.grewBy) {
        // The service counted records it did not deliver, beyond what new announcements explain.
        ctx.events.shortfall?.(
          `trading-halts ${exchange}: the service counts ${fetched.totalCount} record(s) and delivered ${unique}${config.pageSize !== undefined ? ` in pages of ${config.pageSize}` : ''}; ${missing} not delivered (the next run asks again)`,
        );
      } else if (missing > 0) {
        ctx.events.note?.(
          `trading-halts ${exchange}: ${missing} record(s) moved between pages while paging (${fetched.grewBy} new announcement(s) meanwhile); the next run picks them up`,
        );
      }
      // Distinct records: a record a page boundary repeated (R6) is one record.
      ctx.events.note?.(`trading-halts ${exchange}: ${unique} record(s) in the last year, ${out.length} new or changed`);
      yield { stream, seq: 0, records: out, checkpoint: { stream, position: { seen, total: fetched.totalCount } } };
    });
    return mergeStreams(makers, exchanges.length);
  }
}

export const tradingHalts: SourceDefinition<TradingHaltsConfig, RawHalt> & SourcePlanner<TradingHaltsConfig> = {
  kind: 'source',
  needsClient: true,
  type: 'trading-halts',
  summary: 'Trading halts (suspensions) of SSE, NYSE and NASDAQ over the last year; writes only new or changed records. Use with normalize-halts.',
  configSchema: tradingHaltsConfigSchema,
  examples: [{}, { exchanges: ['sse'] }, { exchanges: ['nyse', 'nasdaq'], pageSize: 200, timeoutMs: 300000 }],
  dataset: () => 'halt',
  emits: 'raw-halt',
  create: (config, env) => new TradingHaltsSource(config, env),
  plan(config, ctx): SourcePlan {
    const exchanges = [...new Set(config.exchanges)];
    const notes: string[] = [];
    const streams = exchanges.map((exchange) => {
      const stream = `halt/${exchange}`;
      let requests = 1;
      if (config.pageSize !== undefined) {
        const total = readPosition(ctx.checkpoints.get(stream)).total;
        requests = Math.max(1, Math.ceil(total / config.pageSize));
        if (total === 0) notes.push(`trading-halts ${exchange}: page count unknown before the first run; planned as 1 page`);
      }
      return { stream, requests, sequential: true };
    });
    return {
      groups: streams.map((s, i) => ({
        endpoint: `/api/suspension/${exchanges[i]!}`,
        requests: s.requests,
        minGapMs: ctx.limits.suspensionGapMs,
        gapKey: `suspension/${exchanges[i]!}`,
      })),
      streams,
      // Sorted, as a run lists the folders it wrote (the configured exchange order is no order of theirs).
      partitions: exchanges
        .flatMap((e) => {
          const y = new Date(ctx.nowMs).getUTCFullYear();
          return [`exchange=${e}/year=${y - 1}`, `exchange=${e}/year=${y}`];
        })
        .sort(),
      notes,
    };
  },
};
