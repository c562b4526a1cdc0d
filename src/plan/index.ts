export { planPipeline, type PipelinePlan, type PlanOptions } from './plan-pipeline.js';
export { scheduleRequests } from './schedule.js';
export type { PlanContext, RequestGroup, SourcePlan, SourcePlanLimits, SourcePlanner, StreamPlan } from '../core/plan-types.js';
