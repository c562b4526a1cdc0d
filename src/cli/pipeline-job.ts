/** A pipeline argument turned into a validated pipeline with its resolved settings and overrides. */
import { loadPipeline } from '../config/load-pipeline.js';
import type { Pipeline } from '../config/pipeline-schema.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { resolvePipelineRef, type PipelineRef } from './pipeline-ref.js';
import { registry } from './registry.js';
import { applyOverrides, resolveRunSettings, type RunArgs } from './run-settings.js';

export interface PipelineJob {
  readonly ref: PipelineRef;
  readonly pipeline: Pipeline;
  readonly resolved: ResolvedSettings;
}

export async function loadJob(text: string, args: RunArgs, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): Promise<PipelineJob> {
  const ref = resolvePipelineRef(text, cwd);
  const loaded = await loadPipeline(ref.display, registry);
  const resolved = resolveRunSettings(loaded, args, env);
  const pipeline = applyOverrides(loaded, resolved, registry, ref.display, { state: args.state });
  return { ref, pipeline, resolved };
}

/** Every argument loaded before anything runs, so a bad file stops the command before any request. */
export async function loadJobs(texts: readonly string[], args: RunArgs, env: NodeJS.ProcessEnv): Promise<PipelineJob[]> {
  const jobs: PipelineJob[] = [];
  for (const t of texts) jobs.push(await loadJob(t, args, env));
  return jobs;
}
