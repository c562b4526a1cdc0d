export { planPipeline, type PipelinePlan, type PlanOptions } from './plan-pipeline.js';
export { scheduleRequests } from './schedule.js';
export type { PlanContext, RequestGroup, SourcePlan, SourcePlanner, StreamPlan } from './plan-types.js';
