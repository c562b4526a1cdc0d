/**
 * The polling loop both snapshot sources share: one round, or a round every `everySeconds` for
 * `count` rounds or `durationSeconds`. A round asks for every code at once; the client splits it
 * per family and per the plan's caps (Free: 5 codes a request; others: the 8 KiB URL budget),
 * isolates invalid codes (W8) and says which came back empty. Each row carries fetched_at.
 */
import * as z from 'zod';
import type { ServiceClient, TicksResult } from '../../api/index.js';
import { familyBySuffix, familyPrefix, pollRoundsUnder, streamLimitsOf, URL_BUDGET_BYTES } from '../../api/index.js';
import { findProduct } from '../../catalog/index.js';
import type { Batch, Checkpoint, RunContext, Source } from '../../core/component.js';
import type { ComponentEnv, LintFinding } from '../../core/definition.js';
import type { PlanContext, SourcePlan } from '../../core/plan-types.js';
import { roundsDue } from './round-schedule.js';
import { codeListSchema, listedOnce, lintRounds, roundsShape, type RoundsConfig } from './config-parts.js';
import { codeSchema, lintKnownCodes } from './known-codes.js';
import { CodeProblems } from './report-codes.js';
import { reported, requestReporter } from './request-reporter.js';
import { roundUnlessQuotaEnds } from './round-at-quota.js';
import { checkRoundTicks } from './round-ticks.js';
import { cutRoundsNote, plannedCutRoundsNote } from './cut-rounds-note.js';
import { plannedRounds, roundGroups } from './planned-rounds.js';
import { snapshotPartitions } from './snapshot-partitions.js';
import { serviceClient } from './service-client.js';

export interface SnapshotConfig extends RoundsConfig {
  codes: string[];
  codesOutsideCatalog?: string[] | undefined;
}

/** The config keys both snapshot sources share. */
export const snapshotShape = {
  codes: codeListSchema,
  // An explicit opt-in, so that a typo never reaches the service but a code the catalog lags
  // behind (or the demo's deliberately invalid one, to show W8) still can.
  codesOutsideCatalog: listedOnce(z.array(codeSchema), 'codesOutsideCatalog')
    .optional()
    .describe(
      'Codes the product catalog does not know that may still be sent to the service as written (it decides: a code it rejects is isolated from its batch and reported by name). Any other code outside the catalog stops the pipeline before the first request.',
    ),
  ...roundsShape,
};

export function lintSnapshot(config: SnapshotConfig): LintFinding[] {
  return [
    ...lintKnownCodes(config.codes, 'codes', config.codesOutsideCatalog ?? []),
    ...lintRounds(config),
  ];
}

export interface SnapshotKind<Tick, R> {
  readonly type: string;
  readonly dataset: 'depth' | 'trade';
  readonly path: 'depth-tick' | 'trade-tick';
  fetch(client: ServiceClient, codes: readonly string[], signal: AbortSignal): Promise<TicksResult<Tick>>;
  /** `source`: the endpoint the tick was asked from, as the client called it (file metadata). */
  toRecord(tick: Tick, fetchedAtMs: number, source: string | undefined): R;
}

export class SnapshotSource<Tick, R> implements Source<R> {
  constructor(
    private readonly kind: SnapshotKind<Tick, R>,
    private readonly config: SnapshotConfig,
    private readonly env: ComponentEnv,
  ) {}

  async *read(ctx: RunContext, _from: ReadonlyMap<string, Checkpoint>): AsyncGenerator<Batch<R>> {
    const client = serviceClient(this.env, this.kind.type);
    const reporter = requestReporter(client, ctx.events, ctx.signal);
    const problems = new CodeProblems(this.kind.type);
    const codes = [...new Set(this.config.codes)];
    const asked = new Set(codes);
    // The rounds are one stream, on one token of a pool: its caps size them and its windows pace them.
    const limits = await streamLimitsOf(client, codes);
    const start = ctx.clock.now();
    // Counted as the run will take its rounds: those the token's limits push past durationSeconds are not planned.
    const planned = planSnapshot(this.config, { limits, nowMs: start, checkpoints: new Map(), pollRounds: pollRoundsUnder(limits) }, this.kind);
    for (const s of planned.streams) reporter.plan(s.stream, s.requests);
    let seq = 0;
    const onCut = (cut: number, of: number) => ctx.events.note?.(cutRoundsNote(this.kind.type, cut, of, this.config.durationSeconds));
    for await (const _ of roundsDue(this.config, ctx.clock, start, ctx.signal, onCut)) {
      const answer = await roundUnlessQuotaEnds(ctx, this.kind.type, seq, () => reported(reporter, (signal) => this.kind.fetch(client, codes, signal), this.kind.dataset));
      if (answer === undefined) return;
      const result = answer.value;
      const fetchedAt = ctx.clock.now();
      problems.report(ctx, codes.length, result.invalid, result.missing.filter((c) => !result.invalid.includes(c)));
      const endpoints = result.endpoints ?? {};
      // Each row is stamped with its own answer's time: on a small plan a round's requests are seconds apart.
      const answeredAt = (tick: Tick) => result.answeredAtMs?.get(tick) ?? fetchedAt;
      const records = checkRoundTicks(result.ticks, asked, this.kind.path, answeredAt).map(({ tick, flaw }) => {
        const code = (tick as { code?: unknown } | null)?.code;
        const record = this.kind.toRecord(tick, answeredAt(tick), typeof code === 'string' ? endpoints[code] : undefined);
        return flaw === undefined ? record : { ...record, flaw };
      });
      yield {
        stream: this.kind.dataset,
        seq: seq++,
        records,
        checkpoint: { stream: this.kind.dataset, position: { fetchedAt, round: seq } },
      };
      if (answer.last) return;
    }
    // Bisections of invalid codes may have cost more than planned: the stream is done at what it sent.
    reporter.finish(this.kind.dataset);
  }
}

/** Rough request-target bytes of one code in a tick query (JSON + URL encoding). */
function codeBytes(code: string): number {
  return encodeURIComponent(JSON.stringify({ code })).length + 3;
}

/**
 * Requests one chunk costs when codes outside the catalog turn out invalid: the client halves a
 * batch answered ret 600 until each bad code stands alone (W8).
 */
function bisectionCost(codes: readonly string[]): number {
  if (codes.every((c) => findProduct(c) !== undefined)) return 1;
  if (codes.length === 1) return 1;
  const middle = Math.ceil(codes.length / 2);
  return 1 + bisectionCost(codes.slice(0, middle)) + bisectionCost(codes.slice(middle));
}

/** Requests per round, per endpoint, as the client will split them (no request sent). */
export function snapshotRequestsPerRound(codes: readonly string[], path: string, ctx: PlanContext): Map<string, number> {
  const byFamily = new Map<string, string[]>();
  for (const code of new Set(codes)) {
    const family = findProduct(code)?.family ?? familyBySuffix(code);
    const endpoint = `${familyPrefix(family)}/${path}`;
    const list = byFamily.get(endpoint) ?? [];
    list.push(code);
    byFamily.set(endpoint, list);
  }
  const out = new Map<string, number>();
  const cap = ctx.limits.tickCodesCap;
  // Token, trace and JSON envelope take roughly 200 bytes of the budget.
  const budget = URL_BUDGET_BYTES - 200;
  for (const [endpoint, list] of byFamily) {
    const chunks: string[][] = [];
    let chunk: string[] = [];
    let bytes = 0;
    for (const code of list) {
      const b = codeBytes(code);
      if (chunk.length > 0 && ((cap !== null && chunk.length + 1 > cap) || bytes + b > budget)) {
        chunks.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(code);
      bytes += b;
    }
    if (chunk.length > 0) chunks.push(chunk);
    out.set(endpoint, chunks.reduce((n, c) => n + bisectionCost(c), 0));
  }
  return out;
}

export function planSnapshot(config: SnapshotConfig, ctx: PlanContext, kind: Pick<SnapshotKind<unknown, unknown>, 'path' | 'dataset' | 'type'>): SourcePlan {
  const { path, dataset } = kind;
  const perRound = snapshotRequestsPerRound(config.codes, path, ctx);
  // The rounds a run takes: on a small plan a round of many requests can push later ones past durationSeconds.
  const round = [...perRound].map(([endpoint, requests]) => ({ endpoint, requests }));
  const rounds = plannedRounds(config, ctx, round);
  const starts = rounds.startsMs;
  const groups = roundGroups(round, starts);
  const total = [...perRound.values()].reduce((a, b) => a + b, 0);
  const notes = [`${dataset} snapshot: ${starts.length} round(s) of ${total} request(s) for ${new Set(config.codes).size} code(s)`];
  if (rounds.cut !== undefined) notes.push(plannedCutRoundsNote(kind.type, rounds.cut.cut, rounds.cut.of, config.durationSeconds));
  const unknown = config.codes.filter((c) => findProduct(c) === undefined);
  if (unknown.length > 0) notes.push(`${dataset} snapshot: not in the catalog, planned as invalid (isolated by bisection): ${unknown.join(', ')}`);
  return {
    groups,
    streams: [{ stream: dataset, requests: total * starts.length, records: new Set(config.codes).size * starts.length }],
    partitions: snapshotPartitions(config.codes, starts.map((o) => ctx.nowMs + o)),
    notes,
    ...(starts.length > 1 ? { minDurationMs: starts.at(-1)! } : {}),
  };
}
