/**
 * `planPipeline`: what a run will cost before it starts: requests per endpoint, the share of
 * today's remaining quota, the wall time the plan's limits impose, the partitions it will touch,
 * and how many days a backfill bigger than today's quota needs. No request is sent.
 */
import { planLimits, poolPlanLimits, pollRoundsUnder, type PlanLimits } from '../api/index.js';
import { pacesAnything } from '../api/plans.js';
import { codesEveryPlanRefuses, codesPlanRefuses, marketPlanHint, poolMarketHint, poolMixedMarketsHint } from '../api/plan-market.js';
import type { Checkpoint } from '../core/component.js';
import type { SourceDefinition } from '../core/definition.js';
import { ConfigError } from '../core/errors.js';
import { validatePipeline } from '../config/parse-pipeline.js';
import type { Pipeline, PipelineInput, Registry } from '../config/pipeline-schema.js';
import type { SourcePlan, SourcePlanner, StreamPlan } from '../core/plan-types.js';
import { coveringGroups, plansCoveringAll } from './covering-groups.js';
import { scheduleRequests } from './schedule.js';
import { assignQuota } from './quota-assignment.js';

export interface PlanOptions {
  /** The token's plan: a built-in plan's name, or limits (a custom plan's: planLimits(name, plansFile)). */
  readonly plan: string | PlanLimits;
  /** A token pool: the limits of the token it gives a single stream (a polling source runs on it alone). */
  readonly streamPlan?: PlanLimits;
  /** A token pool: each token's plan. `plan` is then their sum, which has no market: a code is outside when every one refuses it. */
  readonly poolPlans?: readonly PlanLimits[];
  /** A token pool: what is left of each token's day, in `poolPlans`' order (codes only some tokens cover have only their quota). */
  readonly poolRemaining?: readonly number[];
  /** Requests left today (QuotaStore / client.quotaStatus()); default the plan's whole day. */
  readonly quotaRemaining?: number;
  /** Clock time of the run (ms); default now. */
  readonly now?: number;
  /** What spans such as `3d` count back from (core/clock.ts, spanAnchor); default `now`. */
  readonly spanFrom?: number;
  /** Committed checkpoints of this pipeline, by stream key (CheckpointStore.load()). */
  readonly checkpoints?: ReadonlyMap<string, Checkpoint>;
  /** Component registry; the real one is `components` of src/components.ts. */
  readonly registry: Registry;
}

export interface PipelinePlan {
  readonly pipeline: string;
  readonly source: string;
  readonly dataset: string;
  readonly plan: string;
  /** Requests per endpoint path. */
  readonly requests: Readonly<Record<string, number>>;
  readonly totalRequests: number;
  readonly quota: {
    readonly perDay: number;
    readonly remaining: number;
    /** totalRequests / remaining (above 1: more than today allows). */
    readonly share: number;
    /** Calendar days of quota the run needs, today included (1 when it fits today). */
    readonly days: number;
  };
  /** Wall time the limits impose on the requests that fit today's quota, ms (no latency modelled). */
  readonly estimatedMs: number;
  readonly streams: readonly StreamPlan[];
  /** Partition folders relative to `<output>/<dataset>/`. */
  readonly partitions: readonly string[];
  readonly notes: readonly string[];
  /**
   * A pool: codes only some tokens cover whose requests exceed what is left of those tokens' day,
   * each token's requests left counted toward one group only (quota-assignment.ts): the groups that
   * share the tokens used up (the run stops at the daily quota, exit 75, though the pool's sum has
   * room). Absent when they fit.
   */
  readonly coveredQuotaShort?: { readonly codes: readonly string[]; readonly requests: number; readonly remaining: number };
  /** Codes outside the market of an All-* style plan: a run stops at them (`ret 604`, exit 1). Absent when none are. */
  readonly outsideMarket?: { readonly codes: readonly string[]; readonly hint: string };
}

function isPlanner(def: SourceDefinition): def is SourceDefinition & SourcePlanner<unknown> {
  return typeof (def as Partial<SourcePlanner<unknown>>).plan === 'function';
}

export function planPipeline(input: Pipeline | PipelineInput, options: PlanOptions): PipelinePlan {
  const pipeline = validatePipeline(input, { registry: options.registry });
  const def = options.registry.find((d) => d.kind === 'source' && d.type === pipeline.source.type) as SourceDefinition | undefined;
  if (!def) throw new ConfigError(`pipeline ${pipeline.name}: source "${pipeline.source.type}" is not registered`);
  const planned = typeof options.plan === 'string' ? planLimits(options.plan) : options.plan;
  // Rates of the whole pool for streams spread over its tokens; one token's for a poller, whose
  // rounds are one stream that a pool keeps on one token.
  const limits = def.polls === true && options.streamPlan !== undefined ? options.streamPlan : planned;
  const nowMs = options.now ?? Date.now();
  const { type: _type, ...config } = pipeline.source;
  const context = { limits, nowMs, spanFromMs: options.spanFrom ?? nowMs, checkpoints: options.checkpoints ?? new Map<string, Checkpoint>(), pollRounds: pollRoundsUnder(limits) };
  const sourcePlan: SourcePlan = isPlanner(def) ? def.plan(config, context) : { groups: [], streams: [], partitions: [], notes: [`source ${def.type} cannot plan its requests`] };
  const requests: Record<string, number> = {};
  for (const g of sourcePlan.groups) requests[g.endpoint] = (requests[g.endpoint] ?? 0) + g.requests;
  const totalRequests = Object.values(requests).reduce((a, b) => a + b, 0);
  // The daily quota is the pool's: a stream moves to another token when its token's day is used up.
  const remaining = Math.max(0, options.quotaRemaining ?? planned.perDay);
  let days = totalRequests <= remaining ? 1 : 1 + Math.ceil((totalRequests - remaining) / planned.perDay);
  let coveredQuotaShort: PipelinePlan['coveredQuotaShort'];
  const today = Math.min(totalRequests, remaining);
  let estimatedMs = Math.max(scheduleRequests(sourcePlan.groups, limits, today), sourcePlan.minDurationMs ?? 0);
  const notes = [...sourcePlan.notes];
  const poolPlans = options.poolPlans !== undefined && options.poolPlans.length > 1 ? options.poolPlans : undefined;
  const codes = Array.isArray(config.codes) ? config.codes.filter((c): c is string => typeof c === 'string') : [];
  // Series spread over the tokens that cover their codes only: each such group at its own tokens' rates.
  if (poolPlans !== undefined && def.polls !== true && isPlanner(def)) {
    const groups = coveringGroups(codes, poolPlans).map((group) => {
      const part = def.plan({ ...config, codes: group.codes }, context);
      return { ...group, part, requests: part.groups.reduce((a, g) => a + g.requests, 0) };
    });
    // Only a group's tokens' days serve it, and a token's requests left serve one group each: a
    // professional token beside all-us and all-hk ones is counted once, not toward every market.
    const assigned = options.poolRemaining === undefined ? undefined : assignQuota(groups, poolPlans.map((_, i) => options.poolRemaining![i] ?? 0));
    const short = assigned?.short;
    // Every token of the pool short: the pool's own sum says it (below), as on one token.
    if (short !== undefined && short.tokens.length < poolPlans.length) {
      const shortCodes = short.groups.flatMap((g) => groups[g]!.codes);
      const shortPlans = short.tokens.map((t) => poolPlans[t]!);
      // An estimate beyond today: the days after it are shared out again, at the tokens' whole day.
      days = Math.max(days, 1 + Math.ceil((short.requests - short.remaining) / shortPlans.reduce((a, p) => a + p.perDay, 0)));
      coveredQuotaShort = { codes: shortCodes, requests: short.requests, remaining: short.remaining };
      notes.push(
        `the ${short.requests} requests of ${shownCodes(shortCodes)} exceed the ${short.remaining} left today of the tokens whose plan covers them (${planNames(shortPlans)}), ` +
          `each request counted once: ${short.requests - short.remaining} ${short.requests - short.remaining === 1 ? 'waits' : 'wait'} for the reset; the run stops cleanly when those are used up and resumes after the reset`,
      );
    }
    groups.forEach((group, i) => {
      if (group.plans.length === poolPlans.length) return;
      const ms = scheduleRequests(group.part.groups, poolPlanLimits(group.plans), Math.min(group.requests, today, assigned?.served[i] ?? group.requests));
      if (ms <= estimatedMs) return;
      estimatedMs = ms;
      notes.push(coveredOnlyBy(group.codes, group.plans, poolPlans.length, group.requests));
    });
  }
  const outsideMarket = refusedCodes(config, poolPlans ?? [planned]) ?? (poolPlans !== undefined && def.polls === true ? mixedMarkets(codes, poolPlans, limits) : undefined);
  // Said before the costs: nothing else of this plan happens once the service refuses these.
  if (outsideMarket) notes.unshift(`${outsideMarketSaid(outsideMarket.codes)}; ${outsideMarket.hint}`);
  // "about 0s at the plan's limits" is true of a plan that lifts every limit, and no time at all.
  if (totalRequests > 0 && !pacesAnything(limits)) {
    notes.push(`plan ${planned.name} paces nothing, so it sets no time: the run takes as long as the service takes to answer its ${totalRequests} requests, and the run its own work`);
  }
  if (days > 1) {
    notes.push(
      def.polls === true
        ? // A poller's rounds are of their moment: a run after the reset polls afresh, it does not take up the rounds left.
          `${totalRequests} requests exceed today's remaining quota (${remaining}); the run stops cleanly when it is used up, keeping the rounds fetched: the rest are not polled`
        : `${totalRequests} requests exceed today's remaining quota (${remaining}); the run stops cleanly when it is used up and resumes after the reset: ${days} days in all`,
    );
  }
  return {
    pipeline: pipeline.name,
    source: def.type,
    dataset: def.dataset(config),
    plan: planned.name,
    requests,
    totalRequests,
    quota: { perDay: planned.perDay, remaining, share: remaining > 0 ? totalRequests / remaining : Number.POSITIVE_INFINITY, days },
    estimatedMs,
    streams: sourcePlan.streams,
    partitions: sourcePlan.partitions,
    notes,
    ...(coveredQuotaShort ? { coveredQuotaShort } : {}),
    ...(outsideMarket ? { outsideMarket } : {}),
  };
}

/**
 * The codes of a source's `codes` that the plans' markets leave out, with the run's hint for them.
 * For a pool, those every token's plan refuses: whichever token a stream of theirs is given, the
 * run meets the 604.
 */
function refusedCodes(config: Record<string, unknown>, plans: readonly PlanLimits[]): PipelinePlan['outsideMarket'] {
  const codes = config.codes;
  if (!Array.isArray(codes)) return undefined;
  const refused = codesEveryPlanRefuses(codes.filter((c): c is string => typeof c === 'string'), plans);
  if (refused.length === 0) return undefined;
  const only = plans[0]!;
  return { codes: refused, hint: plans.length === 1 && only.market !== undefined ? marketPlanHint(only.name, only.market) : poolMarketHint(plans) };
}

/**
 * A poller on a pool whose every code some token covers: its requests carry one family's codes
 * together (stocks of every market in one), and its stream runs on one token. With no token
 * covering every code, the token it runs on refuses some of them (`stream`: the pool's choice, as
 * the run takes it).
 */
function mixedMarkets(codes: readonly string[], plans: readonly PlanLimits[], stream: PlanLimits): PipelinePlan['outsideMarket'] {
  if (codes.length === 0 || plansCoveringAll(codes, plans).length > 0 || stream.market === undefined) return undefined;
  return { codes: codesPlanRefuses(codes, stream.market), hint: poolMixedMarketsHint(plans) };
}

/** Why the time counts only some tokens' rates: the codes only they cover. */
function coveredOnlyBy(codes: readonly string[], plans: readonly PlanLimits[], of: number, requests: number): string {
  return `the ${requests} requests of ${shownCodes(codes)} go only to the ${plans.length} of ${of} tokens whose plan covers them (${planNames(plans)}): the time counts those tokens' rates`;
}

function shownCodes(codes: readonly string[]): string {
  return codes.length > 4 ? `${codes.slice(0, 4).join(', ')} and ${codes.length - 4} more` : codes.join(', ');
}

function planNames(plans: readonly PlanLimits[]): string {
  return [...new Set(plans.map((p) => p.name))].join(', ');
}

/** In the run's words: what the service answers the first request that carries them. */
export function outsideMarketSaid(codes: readonly string[]): string {
  return `a run stops at ret 604 code unauthorized for ${codes.join(',')} (exit 1)`;
}
