/**
 * quotelake's public API: define and run pipelines from TypeScript, use the plan-aware client on its
 * own, or start the local emulator in a test. Everything else is internal and may change.
 */

// Pipelines
import { definePipeline as defineAnyPipeline } from './config/define-pipeline.js';
import type { PipelineInput } from './config/pipeline-schema.js';
import type { ShippedSinkConfig, ShippedSourceConfig, ShippedTransformConfig } from './components.js';
/** A pipeline of the shipped components, as a TypeScript or JavaScript pipeline file writes it. */
export type ShippedPipelineInput = PipelineInput<ShippedSourceConfig, ShippedTransformConfig, ShippedSinkConfig>;
/**
 * Gives a pipeline of the shipped components its type: an unknown component, a misspelt key or a
 * value of the wrong type is a compile error. The loader and runPipeline still validate it with
 * the schema a YAML file meets. A custom registry's pipeline is a plain PipelineInput.
 */
export const definePipeline: (pipeline: ShippedPipelineInput) => ShippedPipelineInput = defineAnyPipeline;
export type { ShippedSinkConfig, ShippedSourceConfig, ShippedTransformConfig } from './components.js';
export { loadPipeline } from './config/load-pipeline.js';
export { parsePipelineYaml, validatePipeline, PipelineConfigError, type ConfigProblem } from './config/parse-pipeline.js';
export { buildPipelineSchema, type Pipeline, type PipelineInput, type PipelineOptions, type Registry } from './config/pipeline-schema.js';
export { pipelineJsonSchema } from './config/pipeline-json-schema.js';
export { resolveSettings, type Settings } from './config/resolve-settings.js';
export { components } from './components.js';
export { runPipeline, type RunOptions, type RunResult, type RejectedOutput } from './runtime/run-pipeline.js';
export type { LastWords } from './runtime/last-words.js';
export type { RunManifest, RunStatus } from './runtime/run-manifest.js';
export { createRunEvents } from './runtime/run-events.js';
/** runPipeline logs nothing unless given one: `runPipeline(p, { registry: components, logger: createLogger({ level: 'info' }) })`. */
export { createLogger, type LoggerOptions, type LeveledLogger } from './runtime/logger.js';
export { planPipeline, type PipelinePlan } from './plan/index.js';
export { coverageOfOutput, coverageReport, formatCoverageReport, type CoverageReport } from './coverage/index.js';
export type { CoverageOptions, Gap, GapReason, KlineLike, SeriesCoverage } from './coverage/coverage-report.js';

// Components, for custom registries
export { klineHistory, klineLatest, depthSnapshot, tradeSnapshot, tradingHalts } from './sources/index.js';
export { parseDecimals } from './transforms/parse-decimals/index.js';
export { normalizeHalts } from './transforms/normalize-halts/index.js';
export { parquetSink } from './sinks/parquet/index.js';
/** Opt-in: V8 compiles the Parquet codec's WebAssembly optimised from the start (a process-wide flag; call before the first file). */
export { optimizeWasmCompilation } from './lake/parquet/optimized-wasm.js';
export { arrowSink } from './sinks/arrow/index.js';
export { ndjsonSink } from './sinks/ndjson/index.js';
export type { Batch, Checkpoint, CommitReceipt, CommittedFile, Logger, LogLevel, Rejected, RunContext, Sink, Source, Transform, TransformResult } from './core/component.js';
export type { ComponentDefinition, ComponentEnv, SinkDefinition, SourceDefinition, TransformDefinition } from './core/definition.js';
export type { Dataset, Interval, KlineRow, TradeRow, DepthRow, HaltRow, RawKline, RawTrade, RawDepth, RawHalt } from './core/records.js';

// The service client
export { createClient, PLANS, PLAN_NAMES, redactToken, redactUrl, type PlanName } from './api/index.js';
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
  PlanLimits,
  QuotaStatus,
  RequestInfo,
  RequestOutcomes,
  RetryOptions,
  ServiceClient,
  TicksResult,
  TradeTick,
  WindowLimit,
} from './api/index.js';
/** One plan shared by processes and hosts: `createClient({ ..., coordinator: await connectRedisCoordinator('redis://host:6379/0') })`; close() it after the clients. */
export { connectRedisCoordinator, type Coordinator, type CoordinatorOptions, type CoordinatorWait, type RedisCoordinator, type SharedDayCount } from './api/index.js';
/** Several tokens, each on its plan: `createTokenPool({ tokens: [{ token, plan }, ...], baseUrl, stateDir })` is a ServiceClient. */
export { createTokenPool, tokenUsageOf, type PoolToken, type TokenPoolOptions, type TokenUsage } from './api/index.js';
/** Custom plans: `createClient({ plan: 'enterprise', plans: await readPlansFile(f) })`; `startEmulator({ customPlans: doc.plans })`. */
export { readPlansFile, type CustomPlan, type PlansDocument } from './core/plans-file.js';

// Metrics (Prometheus): `const m = createMetrics(); createClient({ ..., onRequest: (i) => m.request(i.endpoint, requestOutcome(i), i.durationMs) })`
export {
  createMetrics,
  observeRun,
  requestOutcome,
  serveMetrics,
  startMetricsTextfile,
  type MetricsServer,
  type MetricsTextfile,
  type QuotaFigures,
  type QuotelakeMetrics,
  type RequestOutcome,
  type TokenRef,
} from './runtime/metrics/index.js';

// An S3 lake: `const lake = await openS3Lake('s3://bucket/prefix', { endpoint, region })`, then
// `runPipeline(p, { ..., outputDir: 's3://bucket/prefix', storage: lake.storage })` and `lake.close()`.
export { openS3Lake, type OpenedS3Lake, type S3LakeOptions } from './lake/storage/open-s3-lake.js';
export type { LakeStorage } from './lake/storage/lake-storage.js';

// The product catalog
export { findProduct, listProducts } from './catalog/index.js';
export type { Product } from './catalog/types.js';

// The local emulator
// A bad `faults` or `behaviours` spec: what startEmulator throws (ConfigErrors, code QL_CONFIG).
export { startEmulator, FaultSpecError, BehaviourSpecError, type EmulatorOptions, type EmulatorHandle, type GroundTruth } from './emulator/index.js';

// Time and errors
export { ManualClock, isVirtualClock, systemClock, type Clock, type VirtualClock } from './core/clock.js';
export {
  QuotelakeError,
  ConfigError,
  ApiError,
  TransportError,
  ResponseShapeError,
  ResponseTooLargeError,
  QuotaExhaustedError,
  SinkError,
  OutputClosedError,
  RejectedRecordError,
  AbortedError,
  PlansFileError,
  StateConflictError,
  FormatVersionError,
  LakeReadError,
  LakeObjectMissingError,
  DeltaConflictError,
  DeltaLogError,
  PathOutsideRootError,
  EnvironmentError,
  S3LocationError,
  CoordinatorDownError,
} from './core/errors.js';
