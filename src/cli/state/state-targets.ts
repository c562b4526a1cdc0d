/**
 * Which checkpoint files a `state` command looks at. A pipeline argument is a pipeline file or name
 * (as for `run`: its outputDir and stateDir count, flags win), or, when no file has that name, the
 * name of a checkpoint file under --output; no argument means every checkpoint file there.
 */
import { PIPELINE_NAME } from '../../config/pipeline-schema.js';
import { DEFAULT_OUTPUT_DIR } from '../../config/resolve-settings.js';
import { keepsState } from '../../runtime/keeps-state.js';
import { checkpointPipelines } from '../../runtime/checkpoint-store.js';
import { loadJob } from '../pipeline-job.js';
import { registry } from '../registry.js';
import type { OutputArgs } from '../shared-options.js';
import { UsageError } from '../usage-error.js';

export interface StateTarget {
  readonly pipeline: string;
  readonly outputDir: string;
  readonly stateDir: string;
  /** The pipeline file, when the argument named one. */
  readonly file?: string;
  /** false for a pipeline that keeps no checkpoints (NDJSON to stdout without --state). */
  readonly keepsState: boolean;
  /** The sink writes one NDJSON file (relative to the output, `{dataset}` in it): the lake path of its streams. */
  readonly ndjsonPath?: string;
}

function defaultStateDir(outputDir: string): string {
  return `${outputDir.replace(/\/+$/, '')}/.state`;
}

export async function stateTargets(names: readonly string[], args: OutputArgs, env: NodeJS.ProcessEnv): Promise<{ targets: StateTarget[]; outputDir: string; stateDir: string }> {
  const outputDir = args.output ?? DEFAULT_OUTPUT_DIR;
  const stateDir = args['state-dir'] ?? defaultStateDir(outputDir);
  if (names.length === 0) {
    const targets = (await checkpointPipelines(stateDir)).map((pipeline) => ({ pipeline, outputDir, stateDir, keepsState: true }));
    return { targets, outputDir, stateDir };
  }
  const targets: StateTarget[] = [];
  for (const name of names) {
    try {
      const job = await loadJob(name, { output: args.output, 'state-dir': args['state-dir'] }, env);
      const sink = job.pipeline.sink as { type: string; path?: string };
      const path = sink.type === 'ndjson' && sink.path !== undefined && sink.path !== 'stdout' && sink.path !== '-' ? sink.path : undefined;
      targets.push({
        pipeline: job.pipeline.name,
        outputDir: job.resolved.settings.outputDir,
        stateDir: job.resolved.settings.stateDir,
        file: job.ref.display,
        keepsState: keepsState(job.pipeline, registry),
        ...(path !== undefined ? { ndjsonPath: path } : {}),
      });
    } catch (error) {
      // Not a pipeline file: the name of a pipeline's state (a pipeline file that is gone, say).
      // Neither (a typo): exit 2 naming what there is, not an empty answer.
      if (!(error instanceof UsageError) || !PIPELINE_NAME.test(name)) throw error;
      const known = await checkpointPipelines(stateDir);
      if (!known.includes(name)) {
        throw new UsageError(
          `pipeline "${name}" not found: no pipeline file of that name, and no checkpoints for it under ${stateDir}`,
          known.length > 0 ? `pipelines with checkpoints there: ${known.join(', ')}` : error.hint,
        );
      }
      targets.push({ pipeline: name, outputDir, stateDir, keepsState: true });
    }
  }
  return { targets, outputDir, stateDir };
}
