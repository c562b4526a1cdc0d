/**
 * kline-latest: the latest 2 bars of every code x interval through /batch-kline, items packed to
 * the plan's cap and spaced by its minimum gap (the client does both). Upserts, final flag as in
 * kline-history, so it keeps a backfilled dataset current between backfills.
 */
import * as z from 'zod';
import { familyPrefix, pollRounds, streamLimitsOf, type BatchKlineItem } from '../../api/index.js';
import { findProduct, type Product } from '../../catalog/index.js';
import type { Batch, Checkpoint, RunContext, Source } from '../../core/component.js';
import type { ComponentEnv, LintFinding, SourceDefinition } from '../../core/definition.js';
import { ConfigError } from '../../core/errors.js';
import type { Interval, RawKline } from '../../core/records.js';
import type { RequestGroup, SourcePlanLimits, SourcePlanner } from '../../core/plan-types.js';
import { countBars, intervalSupported, klineTypeOf } from '../../catalog/bar-grid.js';
import { roundsDue } from '../shared/round-schedule.js';
import { codeListSchema, intervalListSchema, lintRounds, roundsShape } from '../shared/config-parts.js';
import { lintKnownCodes } from '../shared/known-codes.js';
import { klineStream, malformedRecords, mismatchedPage, newestFinal, productPage, toRawKlines, type AnswerTimes } from '../shared/kline-records.js';
import { ECHO_MISMATCH } from '../../core/reject-codes.js';
import { INTERVALS } from '../../core/records.js';
import { CodeProblems } from '../shared/report-codes.js';
import { newestHeldBars } from '../shared/newest-held.js';
import { reported, requestReporter } from '../shared/request-reporter.js';
import { serviceClient } from '../shared/service-client.js';
import { seriesOfAnswer } from './series-of-answer.js';
import { shortOf } from './short-series.js';
import { roundUnlessQuotaEnds } from '../shared/round-at-quota.js';
import { cutRoundsNote, plannedCutRoundsNote } from '../shared/cut-rounds-note.js';
import { plannedRounds, roundGroups } from '../shared/planned-rounds.js';
import { latestPartitions } from './planned-partitions.js';
import { maxOf, minOf, readPosition, toCheckpoint } from '../kline-history/kline-position.js';

/** Bars asked for per series: the newest (maybe forming) and the one before it. */
const LATEST_BARS = 2;

/** The endpoint a product's bars are asked from, as the client calls it (rows carry it to the file metadata). */
const batchEndpoint = (family: Product['family']): string => `${familyPrefix(family)}/batch-kline`;

export const klineLatestConfigSchema = z.strictObject({
  codes: codeListSchema,
  intervals: intervalListSchema,
  ...roundsShape,
});

export type KlineLatestConfig = z.infer<typeof klineLatestConfigSchema>;

function lint(config: KlineLatestConfig): LintFinding[] {
  const out = [...lintKnownCodes(config.codes, 'codes'), ...lintRounds(config)];
  // The same words as kline-history's: what is wrong, and the two ways out.
  for (const [i, code] of config.codes.entries()) {
    const product = findProduct(code);
    if (!product) continue;
    config.intervals.forEach((interval, j) => {
      if (!intervalSupported(product, interval)) {
        out.push({ path: ['intervals', j], message: `${interval} bars are not served for ${code} (stocks and indexes have no 2h or 4h bars); drop it or the code at codes[${i}]` });
      }
    });
  }
  return out;
}

interface Series {
  readonly product: Product;
  readonly interval: Interval;
}

function seriesOf(config: KlineLatestConfig): Series[] {
  const out: Series[] = [];
  for (const code of config.codes) {
    const product = findProduct(code);
    if (!product) throw new ConfigError(`kline-latest: unknown product code ${JSON.stringify(code)}`);
    for (const interval of config.intervals) {
      if (!intervalSupported(product, interval)) throw new ConfigError(`kline-latest: ${interval} bars are not served for ${code}`);
      out.push({ product, interval });
    }
  }
  return out;
}

/** Requests one round needs: per family, the items over the plan's cap. */
export function batchRequestsPerRound(config: KlineLatestConfig, itemCap: number): Map<string, number> {
  const perFamily = new Map<string, number>();
  for (const s of seriesOf(config)) {
    const endpoint = `${familyPrefix(s.product.family)}/batch-kline`;
    perFamily.set(endpoint, (perFamily.get(endpoint) ?? 0) + 1);
  }
  return new Map([...perFamily].map(([endpoint, items]) => [endpoint, Math.ceil(items / itemCap)]));
}

/** One round's requests as the plan's limits space them (the run and the plan model the same round). */
function latestRound(config: KlineLatestConfig, limits: SourcePlanLimits): RequestGroup[] {
  return [...batchRequestsPerRound(config, limits.batchKlineItemCap)].map(([endpoint, requests]) => ({ endpoint, requests, minGapMs: limits.batchKlineGapMs, gapKey: 'batch-kline' }));
}

const iso = (sec: number) => new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

class KlineLatestSource implements Source<RawKline> {
  constructor(
    private readonly config: KlineLatestConfig,
    private readonly env: ComponentEnv,
  ) {}

  async *read(ctx: RunContext, from: ReadonlyMap<string, Checkpoint>): AsyncGenerator<Batch<RawKline>> {
    const client = serviceClient(this.env, 'kline-latest');
    const reporter = requestReporter(client, ctx.events, ctx.signal);
    const series = seriesOf(this.config);
    const byKey = new Map(series.map((s) => [`${s.product.code}\u0000${klineTypeOf(s.interval)}`, s]));
    const positions = new Map(series.map((s) => {
      const stream = klineStream(s.product.code, s.interval);
      return [stream, readPosition(from.get(stream))];
    }));
    // The newest bar the dataset holds per series, whoever wrote it (kline-history into the same
    // output, an earlier run): a gap is judged from the data, never from this pipeline's checkpoint alone.
    const held = await newestHeld(this.env);
    const problems = new CodeProblems('kline-latest');
    const items: BatchKlineItem[] = series.map((s) => ({ code: s.product.code, klineType: klineTypeOf(s.interval), count: LATEST_BARS }));
    // The rounds are one stream, on one token of a pool: its item cap sizes them and its batch gap paces them.
    const limits = await streamLimitsOf(client, items.map((i) => i.code));
    const start = ctx.clock.now();
    // Counted as the run will take its rounds: those the batch gap pushes past durationSeconds are not planned.
    const round = latestRound(this.config, limits);
    const perRound = round.reduce((a, g) => a + g.requests, 0);
    reporter.plan('kline-latest', perRound * pollRounds(this.config, round, limits).startsMs.length);
    const gapNoted = new Set<string>();
    const shortNoted = new Set<string>();
    const malformedNoted = new Set<string>();
    let seq = 0;
    let rounds = 0;
    const onCut = (cut: number, of: number) => ctx.events.note?.(cutRoundsNote('kline-latest', cut, of, this.config.durationSeconds));
    for await (const _ of roundsDue(this.config, ctx.clock, start, ctx.signal, onCut)) {
      const askedAtMs = ctx.clock.now();
      const answer = await roundUnlessQuotaEnds(ctx, 'kline-latest', rounds, () => reported(reporter, (signal) => client.batchKline(items, signal), 'kline-latest'));
      if (answer === undefined) return;
      const result = answer.value;
      rounds++;
      const times: AnswerTimes = { askedAtMs, answeredAtMs: ctx.clock.now() };
      problems.report(ctx, items.length, result.invalid, result.missing.filter((m) => !result.invalid.includes(m.code)).map((m) => `${m.code} kline_type ${m.klineType}`));
      for (const m of result.malformed) {
        // Once per element sent (wherever in the list): a polling run against a service that keeps sending it says it once.
        const what = `${m.endpoint} ${m.problem.replace(/^kline_list\[\d+\]/, '')} ${m.excerpt}`;
        if (malformedNoted.has(what)) continue;
        malformedNoted.add(what);
        ctx.events.note?.(`kline-latest: ${m.endpoint} answered an element of its series list that is not a series, left out (the item it stood for was asked again): ${m.problem}; sent ${m.excerpt}`);
      }
      for (const s of seriesOfAnswer(result.series)) {
        const target = byKey.get(`${s.code}\u0000${s.kline_type}`);
        if (!target) {
          // A series nobody asked for (its echo matches no item): rejected by name, never stored.
          const interval = INTERVALS[s.kline_type - 1];
          const what = `${s.code} kline_type ${s.kline_type}`;
          if (interval === undefined || s.kline_data.length === 0) {
            if (s.kline_data.length > 0) ctx.events.note?.(`kline-latest: the service sent ${s.kline_data.length} bar(s) for ${what}, which was not asked for; not stored`);
            continue;
          }
          const flaw = { code: ECHO_MISMATCH, field: 'code', value: s.code, reason: `series ${what} was not asked for in this /batch-kline request` };
          yield { stream: klineStream(s.code, interval), seq: seq++, records: malformedRecords(s.code, interval, mismatchedPage(s.kline_data, flaw).malformed, '/batch-kline') };
          continue;
        }
        const stream = klineStream(target.product.code, target.interval);
        const page = productPage(target.product, s.kline_data);
        const should = shortOf(target.product, target.interval, LATEST_BARS, page.ts.length + page.malformed.length, askedAtMs);
        if (should !== undefined && !shortNoted.has(stream)) {
          shortNoted.add(stream);
          ctx.events.shortfall?.(`kline-latest ${stream}: the service gave ${page.ts.length + page.malformed.length} of the latest ${should} bars; the bar before the newest was not delivered (run kline-history to fetch it)`);
        }
        const records = [
          ...toRawKlines(target.product, target.interval, page, times, batchEndpoint(target.product.family)),
          ...malformedRecords(target.product.code, target.interval, page.malformed, batchEndpoint(target.product.family)),
        ];
        const before = positions.get(stream)!;
        const oldest = page.ts[0] ?? null;
        const newest = maxOf(before.watermark, held.get(stream) ?? null);
        if (newest !== null && oldest !== null && oldest > newest && !gapNoted.has(stream)) {
          // Bars between the newest held and the two latest are not in this answer.
          if (!adjacent(target, newest, oldest)) {
            gapNoted.add(stream);
            const gap = `kline-latest ${stream}: bars after ${iso(newest)} and before ${iso(oldest)} are not held; run kline-history to fill them`;
            ctx.events.note?.(gap);
            // At warn too: a scheduled --quiet run (after downtime) shows no notes, and exits 0.
            ctx.logger.warn(gap, { event: 'not-held', stream, after: iso(newest), before: iso(oldest) });
          }
        }
        const position = {
          watermark: maxOf(before.watermark, newestFinal(records)),
          low: minOf(before.low, oldest),
          ...(before.begins !== undefined ? { begins: before.begins } : {}),
          // What a walk of the series learned of its service, for the next walk.
          ...(before.overlapping ? { overlapping: true as const } : {}),
        };
        positions.set(stream, position);
        yield { stream, seq: seq++, records, checkpoint: toCheckpoint(stream, position) };
      }
      if (answer.last) return;
    }
    reporter.finish('kline-latest');
  }
}

/** The newest bar open (Unix seconds) per kline stream the output holds, from the manifests' key ranges. */
async function newestHeld(env: ComponentEnv): Promise<Map<string, number>> {
  return newestHeldBars((await env.heldKeys?.('kline').catch(() => undefined)) ?? []);
}

/** Whether `next` is the bar right after `prev` on the series' grid (no bar between them). */
function adjacent(series: Series, prev: number, next: number): boolean {
  return countBars(series.product, series.interval, (prev + 1) * 1000, next * 1000) === 0;
}

export const klineLatest: SourceDefinition<KlineLatestConfig, RawKline> & SourcePlanner<KlineLatestConfig> = {
  kind: 'source',
  needsClient: true,
  polls: true,
  type: 'kline-latest',
  summary: 'The latest 2 bars of many codes x intervals per /batch-kline request, once or every N seconds; upserts the forming bar until final.',
  configSchema: klineLatestConfigSchema,
  examples: [
    { codes: ['BTCUSDT', 'ETHUSDT', 'AAPL.US'], intervals: ['1m'] },
    { codes: ['EURUSD', 'GOLD'], intervals: ['1m', '1h'], everySeconds: 60, durationSeconds: 3600 },
    { codes: ['700.HK'], intervals: ['1d'], everySeconds: 30, count: 10 },
  ],
  dataset: () => 'kline',
  emits: 'raw-kline',
  lint,
  create: (config, env) => new KlineLatestSource(config, env),
  // One stream of requests ('kline-latest'), kept on one token of a pool.
  plan(config, ctx) {
    const round = latestRound(config, ctx.limits);
    // The rounds a run takes: on a small plan the batch gap can push later ones past durationSeconds.
    const rounds = plannedRounds(config, ctx, round);
    const starts = rounds.startsMs;
    const groups = roundGroups(round, starts);
    const series = seriesOf(config);
    const streams = series.map((s) => ({
      stream: klineStream(s.product.code, s.interval),
      requests: 0,
      records: LATEST_BARS * starts.length,
    }));
    const partitions = latestPartitions(series, starts.map((o) => ctx.nowMs + o), LATEST_BARS);
    const notes = [`kline-latest: ${starts.length} round(s) of ${round.reduce((a, g) => a + g.requests, 0)} /batch-kline request(s)`];
    if (rounds.cut !== undefined) notes.push(plannedCutRoundsNote('kline-latest', rounds.cut.cut, rounds.cut.of, config.durationSeconds));
    return {
      groups,
      streams,
      partitions,
      notes,
      ...(starts.length > 1 ? { minDurationMs: starts.at(-1)! } : {}),
    };
  },
};
