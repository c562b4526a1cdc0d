/** The local emulator of the market-data query service: its public surface. */
export {
  startEmulator,
  MAX_REQUEST_TARGET,
  MAX_HEADER_SIZE,
  type EmulatorOptions,
  type EmulatorHandle,
} from './server.js';
export type { EmulatorBackends, MarketBackend, HaltBackend } from './backends.js';
export { PLANS, PLAN_NAMES, DEMO_TOKENS, type PlanName, type PlanLimits } from './plans.js';
export { emulatorPlans, loadPlansFile, PlansFileError, type EmulatorPlans, type TokenGrant } from './plans-file.js';
export { parseFaultSpec, FaultSpecError, NO_FAULTS, type FaultSpec } from './faults/fault-spec.js';
export {
  parseBehaviourSpec,
  BehaviourSpecError,
  NO_BEHAVIOURS,
  ALL_BEHAVIOURS,
  type BehaviourSpec,
} from './behaviours/behaviour-spec.js';
export type { GroundTruth, TruthKlineOptions } from './behaviours/ground-truth.js';
export type { TokenUsage, WindowUsage } from './limits/rate-limiter.js';
export { MAX_BODY_BYTES } from './http/read-body.js';
