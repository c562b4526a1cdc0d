/** The service client's public surface. Everything else in src/api is internal. */
export { createClient } from './client.js';
export type {
  AdmissionInfo,
  BatchKlineItem,
  BatchKlineResult,
  BatchKlineSeries,
  ClientOptions,
  DepthTick,
  HaltExchange,
  HaltResponse,
  HaltsOptions,
  KlineBar,
  KlineRequest,
  KlineResult,
  MalformedBatchSeries,
  QuotaStatus,
  RequestInfo,
  RequestOutcomes,
  RetryOptions,
  ServiceClient,
  TicksResult,
  TradeTick,
} from './types.js';
export { PLANS, PLAN_NAMES, isPlanName, isUnlimited, planLimits, type PlanLimits, type PlanName, type WindowLimit } from './plans.js';
export { redactText, redactToken, redactUrl } from '../core/redact.js';
export { manualSleep, systemSleep, type Sleep } from './sleep.js';
export { SlidingWindowLimiter, type Permit, type RateLimiterOptions, type WindowRule } from './rate-limiter.js';
export { QuotaStore, tokenHash16, type QuotaStoreOptions } from './quota-store.js';
export { Admissions } from './plan-admissions.js';
export { pollRounds, pollRoundsUnder } from './poll-rounds.js';
export { streamLimitsOf } from './stream-limits.js';
export type { Admission, AdmissionContext, Coordinator, LimiterPort, QuotaPort } from './admission.js';
export { connectRedisCoordinator, type CoordinatorOptions } from './connect-redis-coordinator.js';
export type { CoordinatorWait } from './redis/redis-patience.js';
export type { RedisCoordinator, SharedDayCount } from './redis/index.js';
export { familyBySuffix, familyPrefix, type Family, type FamilyLookup } from './family.js';
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, type Timeouts } from './http-transport.js';
export { URL_BUDGET_BYTES } from './batching.js';
export { mulberry32 as seededRandom } from '../core/mulberry32.js';
export { createTokenPool, poolPlanLimits, streamTokenLimits, TokenPool, type PoolToken, type TokenPoolOptions } from './token-pool.js';
export { tokenUsageOf, type TokenUsage, type TokenUsageSource } from './token-usage.js';
export { poolQuotaStop, type PoolQuotaStop, type PoolTokenDay, type PoolTokenNamed } from './pool-quota-stop.js';
