/** A pipeline argument turned into a validated pipeline with its resolved settings and overrides. */
import { planLimits } from '../api/index.js';
import { isYamlPipeline, loadPipeline, readPipelineText } from '../config/load-pipeline.js';
import { PipelineConfigError, valuePosition } from '../config/parse-pipeline.js';
import { PlansFileError } from '../core/errors.js';
import type { PipelineLoader } from '../config/pipeline-cache.js';
import type { Pipeline } from '../config/pipeline-schema.js';
import { PlanWithoutPlansFileError, type ResolvedSettings } from '../config/resolve-settings.js';
import type { PlansDocument } from '../core/plans-file.js';
import { checkPlanInFile, PLAN_NOT_IN_FILE_HINT, plansReadError, readPlansOnce } from './command-plans.js';
import { UsageError } from './usage-error.js';
import { resolvePipelineRef, type PipelineRef } from './pipeline-ref.js';
import { registry } from './registry.js';
import { checkTypeScriptPipeline } from './typescript-support.js';
import { checkpointKeyProblem, isS3Url, parseS3Url } from '../core/s3-url.js';
import { refuseIdleS3Endpoint } from './idle-s3-endpoint.js';
import { refuseSinkOnObjectStore } from '../runtime/object-store-refusal.js';
import { applyOverrides, resolveRunSettings, type RunArgs } from './run-settings.js';

export interface PipelineJob {
  readonly ref: PipelineRef;
  readonly pipeline: Pipeline;
  readonly resolved: ResolvedSettings;
  /** The plans file of the run's settings, when one is set (its custom plans; never a token). */
  readonly plans?: PlansDocument | undefined;
}

/**
 * The plans file of the settings, read once per command, and the plan checked against it: a name
 * neither built in nor defined there is a usage error naming the file and the known plans.
 */
async function plansOf(resolved: ResolvedSettings, pipelineFile: string, named: string | undefined): Promise<PlansDocument | undefined> {
  const { plansFile, plan } = resolved.settings;
  if (plansFile === undefined) return undefined;
  let doc: PlansDocument;
  try {
    doc = await readPlansOnce(plansFile);
  } catch (e) {
    // A plans file the pipeline names and nothing can read: the fault is the pipeline's key.
    if (e instanceof PlansFileError && e.unreadable && resolved.origin.plansFile === 'file') throw await unreadablePlansAt(pipelineFile, named, e);
    throw plansReadError(e);
  }
  if (plan === undefined) return doc;
  if (resolved.origin.plan !== 'file') {
    checkPlanInFile(plan, doc);
    return doc;
  }
  // The pipeline's service.plan is the pipeline's fault, at its line (validate lists it with the others).
  try {
    planLimits(plan, doc);
  } catch (e) {
    if (e instanceof PlansFileError) throw await planNotInFileAt(pipelineFile, e);
    throw e;
  }
  return doc;
}

/** service.plan naming a plan the plans file in use does not define. */
async function planNotInFileAt(pipelineFile: string, e: PlansFileError): Promise<PipelineConfigError> {
  const where = isYamlPipeline(pipelineFile) ? valuePosition(await readPipelineText(pipelineFile), ['service', 'plan']) : {};
  return new PipelineConfigError(pipelineFile, [{ message: `service.plan: plans file ${e.message}; ${PLAN_NOT_IN_FILE_HINT}`, ...where }]);
}

/** A custom plan the pipeline names with no plans file anywhere: the fault is the pipeline's key. */
async function planWithoutFileAt(pipelineFile: string, e: PlanWithoutPlansFileError): Promise<PipelineConfigError> {
  const where = isYamlPipeline(pipelineFile) ? valuePosition(await readPipelineText(pipelineFile), ['service', 'plan']) : {};
  return new PipelineConfigError(pipelineFile, [{ message: e.message, ...where }]);
}

async function unreadablePlansAt(pipelineFile: string, named: string | undefined, e: PlansFileError): Promise<PipelineConfigError> {
  const where = isYamlPipeline(pipelineFile) ? valuePosition(await readPipelineText(pipelineFile), ['service', 'plansFile']) : {};
  const reason = e.message.slice(e.file.length + 2);
  return new PipelineConfigError(pipelineFile, [{ message: `service.plansFile: ${JSON.stringify(named)} (${e.file}): ${reason}; a relative path is read from the pipeline file's folder`, ...where }]);
}

/** `load`: how the file is read and parsed (a worker passes its cache, config/pipeline-cache.ts). */
export async function loadJob(
  text: string,
  args: RunArgs,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
  load: PipelineLoader = loadPipeline,
): Promise<PipelineJob> {
  const ref = resolvePipelineRef(text, cwd);
  checkTypeScriptPipeline(ref.display);
  const loaded = await load(ref.display, registry);
  let resolved: ResolvedSettings;
  try {
    resolved = resolveRunSettings(loaded, args, env, ref.display);
  } catch (e) {
    if (e instanceof PlanWithoutPlansFileError) throw await planWithoutFileAt(ref.display, e);
    throw e;
  }
  // An s3:// --output is checked like the pipeline's outputDir is by its schema: before anything runs.
  if (isS3Url(resolved.settings.outputDir)) parseS3Url(resolved.settings.outputDir);
  const plans = await plansOf(resolved, ref.display, loaded.service?.plansFile);
  const pipeline = applyOverrides(loaded, resolved, registry, ref.display, { state: args.state, table: args.table });
  refuseSinkOnObjectStore(pipeline, registry, resolved.settings.outputDir, isS3Url(resolved.settings.outputDir));
  const checkpointTooLong = isS3Url(resolved.settings.outputDir) ? checkpointKeyProblem(resolved.settings.outputDir, pipeline.name) : undefined;
  if (checkpointTooLong !== undefined) throw new UsageError(`pipeline ${pipeline.name}: ${checkpointTooLong}`, 'an S3 object key has at most 1024 bytes (UTF-8)');
  return { ref, pipeline, resolved, ...(plans ? { plans } : {}) };
}

/** Every argument loaded before anything runs, so a bad file stops the command before any request. */
/** `parsed`: told each pipeline as its file gives it, before the options apply (which may fail). */
export async function loadJobs(texts: readonly string[], args: RunArgs, env: NodeJS.ProcessEnv, parsed?: (pipeline: Pipeline) => void): Promise<PipelineJob[]> {
  const jobs: PipelineJob[] = [];
  const load: PipelineLoader = async (file, registry) => {
    const pipeline = await loadPipeline(file, registry);
    parsed?.(pipeline);
    return pipeline;
  };
  for (const t of texts) {
    const job = await loadJob(t, args, env, process.cwd(), load);
    // A second run of the same file in one command fetches again what the first just wrote.
    const same = jobs.find((j) => j.ref.path === job.ref.path);
    if (same !== undefined) {
      throw new UsageError(`pipeline ${job.ref.display} is given twice (as ${texts[jobs.indexOf(same)]} and as ${t}): each pipeline runs once per command`, 'give each pipeline once');
    }
    jobs.push(job);
  }
  refuseIdleS3Endpoint(args['s3-endpoint'], jobs.map((j) => j.resolved.settings.outputDir));
  return jobs;
}
