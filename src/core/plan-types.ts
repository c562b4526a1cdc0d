/**
 * What a source's plan looks like before a run: the requests it will send per endpoint, how they
 * must be spaced, the partitions it will touch, and notes (e.g. stock history that cannot be
 * reached). Built from the config, the catalog and the checkpoints alone: no request is sent.
 */
import type { Checkpoint } from './component.js';
import type { RoundsConfig, RoundsCut } from './round-starts.js';

/**
 * The limits of the token's plan that shape a source's requests (the client's PlanLimits has them
 * and more; the planner passes that). Named here so a source plans without importing the planner.
 */
export interface SourcePlanLimits {
  /** Codes served per /depth-tick or /trade-tick request; `null` = only the URL length bounds it. */
  readonly tickCodesCap: number | null;
  /** Items per /batch-kline request. */
  readonly batchKlineItemCap: number;
  /** /batch-kline minimum gap, ms. */
  readonly batchKlineGapMs: number;
  /** Each suspension endpoint: 1 request per this many ms. */
  readonly suspensionGapMs: number;
}

export interface PlanContext {
  readonly limits: SourcePlanLimits;
  /** Clock time the plan is for (ms). */
  readonly nowMs: number;
  /** What spans such as `3d` count back from (core/clock.ts, spanAnchor); nowMs when absent. */
  readonly spanFromMs?: number;
  /** Committed checkpoints of the pipeline, by stream key. */
  readonly checkpoints: ReadonlyMap<string, Checkpoint>;
  /**
   * When a polling source's rounds start under the plan's limits, given one round's requests: the
   * planner's model (api/poll-rounds.ts). Absent: every configured round, on its offset.
   */
  readonly pollRounds?: (config: RoundsConfig, round: readonly RequestGroup[]) => PlannedRounds;
}

/** The polling rounds a run will take. */
export interface PlannedRounds {
  /** Start of each round taken, ms from the run's start. */
  readonly startsMs: readonly number[];
  /** The configured rounds pushed past `durationSeconds`, when any are. */
  readonly cut?: RoundsCut;
}

export interface StreamPlan {
  readonly stream: string;
  /** Requests this stream needs. */
  readonly requests: number;
  /** Bars (or records) expected, when known. */
  readonly records?: number;
  /** Requests that must go one after another (a backward walk: each end comes from the previous page). */
  readonly sequential?: boolean;
}

/** One group of requests that share a spacing rule. */
export interface RequestGroup {
  /** Endpoint path, e.g. `/quote-b-api/kline`. */
  readonly endpoint: string;
  readonly requests: number;
  /** Minimum gap between two requests of the same `gapKey` (batch-kline gap, one suspension request per minute per exchange). */
  readonly minGapMs?: number;
  /** Groups with the same key share one gap chain (the batch-kline gap spans both families); default the endpoint. */
  readonly gapKey?: string;
  /** When they start, relative to the run start (polling rounds); absent = as soon as the limits allow. */
  readonly notBeforeMs?: readonly number[];
}

export interface SourcePlan {
  readonly groups: readonly RequestGroup[];
  readonly streams: readonly StreamPlan[];
  /** Partition folders (relative to the dataset) the run will write into. */
  readonly partitions: readonly string[];
  readonly notes: readonly string[];
  /** Time the source runs at least, whatever the limits (e.g. `durationSeconds` of a poller), ms. */
  readonly minDurationMs?: number;
}

/** A source definition that can plan its part of a run. */
export interface SourcePlanner<C> {
  plan(config: C, ctx: PlanContext): SourcePlan;
}
