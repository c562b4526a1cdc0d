/**
 * kline-history: K-line history of codes x intervals from `since` to `until` (default now), kept
 * current incrementally. Forex, metals and crypto are walked backwards with end timestamps;
 * stocks and indexes only ever get their newest bars, so their history builds up across runs.
 */
import * as z from 'zod';
import { findProduct } from '../../catalog/index.js';
import { spanAnchor } from '../../core/clock.js';
import type { Batch, Checkpoint, RunContext, Source } from '../../core/component.js';
import type { ComponentEnv, LintFinding, SourceDefinition } from '../../core/definition.js';
import { ConfigError } from '../../core/errors.js';
import type { Interval, RawKline } from '../../core/records.js';
import type { SourcePlanner } from '../../core/plan-types.js';
import { firstCellMs, intervalSupported } from '../../catalog/bar-grid.js';
import { codeListSchema, intervalListSchema } from '../shared/config-parts.js';
import { lintKnownCodes } from '../shared/known-codes.js';
import { klineStream } from '../shared/kline-records.js';
import { mergeByFrontier } from '../shared/merge-by-frontier.js';
import { requestReporter } from '../shared/request-reporter.js';
import { serviceClient } from '../shared/service-client.js';
import { isTimeSpan, resolveTimeSpec, timeSpecMs, timeSpecSchema } from '../shared/time-spec.js';
import { readPosition } from './kline-position.js';
import { planKlineHistory } from './plan-kline-history.js';
import { isoSeconds, readSeries, type SeriesEnv } from './read-series.js';
import { OPEN_SERIES, pagesAheadPerSeries } from './series-schedule.js';
import { walkFrontier } from './walk-frontier.js';
import { BatchBox, unboxed } from '../shared/batch-box.js';
import { settledAcross } from '../shared/settled-across.js';

export const klineHistoryConfigSchema = z.strictObject({
  codes: codeListSchema,
  intervals: intervalListSchema,
  since: timeSpecSchema
    .optional()
    .describe('Oldest bar wanted: ISO date/date-time (UTC) or a span back from now, a whole number of m (minutes), h, d or w (90d, 12h, 2w). Default: the first listed bar.'),
  until: timeSpecSchema.optional().describe('Newest bar wanted (same forms as since). Default: now, the forming bar included.'),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe('Series fetched side by side (the plan\'s limits still apply); the series furthest behind in time goes next, so all advance together.'),
  prefetchPages: z
    .number()
    .int()
    .min(1)
    .max(16)
    .default(4)
    .describe(
      'Pages of one backward walk in flight at once (their ends follow from the calendar); 1 = one after another. More series than concurrency share the concurrency x (prefetchPages - 1) pages ahead.',
    ),
});

export type KlineHistoryConfig = z.infer<typeof klineHistoryConfigSchema>;

function lint(config: KlineHistoryConfig): LintFinding[] {
  const out = lintKnownCodes(config.codes, 'codes');
  for (const [i, code] of config.codes.entries()) {
    const product = findProduct(code);
    if (!product) continue;
    for (const [j, interval] of config.intervals.entries()) {
      if (!intervalSupported(product, interval)) {
        out.push({
          path: ['intervals', j],
          message: `${interval} bars are not served for ${code} (stocks and indexes have no 2h or 4h bars); drop it or the code at codes[${i}]`,
        });
      }
    }
  }
  // Only an order that holds at every instant (two dates, or two spans) is a mistake of the file; a
  // date against a span depends on when (--clock) it runs, and the run or plan says so in a note.
  if (config.since !== undefined && config.until !== undefined && isTimeSpan(config.since) === isTimeSpan(config.until)) {
    // Either may be what the schema refused (an impossible date): NaN, which compares false.
    if (timeSpecMs(config.since, 0) > timeSpecMs(config.until, 0)) {
      out.push({ path: ['since'], message: `since (${config.since}) is after until (${config.until})` });
    }
  }
  return out;
}

class KlineHistorySource implements Source<RawKline> {
  constructor(
    private readonly config: KlineHistoryConfig,
    private readonly env: ComponentEnv,
  ) {}

  read(ctx: RunContext, from: ReadonlyMap<string, Checkpoint>): AsyncIterable<Batch<RawKline>> {
    const client = serviceClient(this.env, 'kline-history');
    const reporter = requestReporter(client, ctx.events, ctx.signal);
    const now = ctx.clock.now();
    const spanFrom = spanAnchor(ctx.clock);
    // The window asked for, once for every series (each series' since is then no earlier than its listing).
    const askedMs = this.config.since !== undefined ? resolveTimeSpec(this.config.since, spanFrom) : null;
    const untilMs = this.config.until !== undefined ? resolveTimeSpec(this.config.until, spanFrom) : null;
    const quota = { exhausted: null };
    const plan = planKlineHistory(this.config, { nowMs: now, spanFromMs: spanFrom, checkpoints: from });
    for (const s of plan.streams) reporter.plan(s.stream, s.requests);
    const makers: (() => AsyncGenerator<BatchBox<RawKline>>)[] = [];
    const prefetchPages = pagesAheadPerSeries(this.config.concurrency, this.config.prefetchPages, this.config.codes.length * this.config.intervals.length);
    for (const code of this.config.codes) {
      const product = findProduct(code);
      if (!product) throw new ConfigError(`kline-history: unknown product code ${JSON.stringify(code)}`);
      for (const interval of this.config.intervals) {
        if (!intervalSupported(product, interval)) {
          throw new ConfigError(`kline-history: ${interval} bars are not served for ${code}`);
        }
        const env: SeriesEnv = {
          client,
          reporter,
          ctx,
          product,
          interval: interval as Interval,
          sinceMs: Math.max(askedMs ?? -Infinity, firstCellMs(product, interval)),
          untilMs,
          quota,
          prefetchPages,
        };
        const start = readPosition(from.get(klineStream(code, interval)));
        if (askedMs !== null && askedMs < env.sinceMs && start.low === null && product.endTimestampSupported) {
          ctx.events.note?.(
            `kline ${code} ${interval}: history begins at ${isoSeconds(env.sinceMs / 1000)}, with the product's listing on ${product.listedSince}, after since ${isoSeconds(Math.floor(askedMs / 1000))} (not a gap)`,
          );
        }
        makers.push(() => readSeries(env, start));
      }
    }
    // Time-major: the series furthest behind in its walk reads next, so each day partition of the
    // lake is completed by every series close together instead of being rewritten wave by wave.
    // Boxes, taken as they are passed on: an open series keeps nothing of a batch it handed out.
    // Each batch also says below which instant the run's later rows lie, once every series has said
    // it of its own: the sink then finishes the days every series has passed.
    const merged = unboxed(mergeByFrontier(makers, { concurrency: this.config.concurrency, progressOf: (box) => walkFrontier(box.peek()), openLanes: OPEN_SERIES }));
    return settledAcross(merged, makers.length);
  }
}

export const klineHistory: SourceDefinition<KlineHistoryConfig, RawKline> & SourcePlanner<KlineHistoryConfig> = {
  kind: 'source',
  needsClient: true,
  type: 'kline-history',
  summary:
    'K-line history of codes x intervals since a date, incremental (only bars after the stored watermark; the forming bar is upserted until final).',
  configSchema: klineHistoryConfigSchema,
  examples: [
    { codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m'], since: '30d' },
    { codes: ['AAPL.US', '700.HK'], intervals: ['1m', '1d'], since: '2026-01-01' },
    { codes: ['GOLD'], intervals: ['1h', '4h'], since: '2025-01-01', until: '2025-12-31T23:59:59Z', concurrency: 2 },
  ],
  dataset: () => 'kline',
  emits: 'raw-kline',
  lint,
  create: (config, env) => new KlineHistorySource(config, env),
  plan: (config, ctx) => planKlineHistory(config, ctx),
};
