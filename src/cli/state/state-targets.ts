/**
 * Which checkpoint files a `state` command looks at. A pipeline argument is a pipeline file or name
 * (as for `run`: its outputDir and stateDir count, flags win), or, when no file has that name, the
 * name of a checkpoint file under --output; no argument means every checkpoint file there.
 */
import { PIPELINE_NAME } from '../../config/pipeline-schema.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { DEFAULT_OUTPUT_DIR } from '../../config/resolve-settings.js';
import { keepsState } from '../../runtime/keeps-state.js';
import { stateResetCommand } from '../../runtime/state-reset-command.js';
import { checkpointPipelines } from '../../runtime/checkpoint-store.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';
import type { StateLocation } from '../../runtime/state-location.js';
import { checkStateDirFlag, checkStateOutput, commandLake, commandState, type CommandLake } from '../lake-location.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';
import { loadJob } from '../pipeline-job.js';
import { registry } from '../registry.js';
import type { OutputArgs } from '../shared-options.js';
import { UsageError } from '../usage-error.js';

export interface StateTarget {
  readonly pipeline: string;
  readonly outputDir: string;
  /** Where the state is, for messages: a folder, or the lake's `s3://…/_quotelake/state`. */
  readonly stateDir: string;
  /** The state itself: a local folder, or the lake's `_quotelake/state/` (I5). */
  readonly state: StateLocation;
  /** The output as a storage: the lock of `state reset` is taken on it. */
  readonly lake: LakeStorage;
  /** The pipeline file, when the argument named one. */
  readonly file?: string;
  /** false for a pipeline that keeps no checkpoints (NDJSON to stdout without --state). */
  readonly keepsState: boolean;
  /** The `quotelake state reset` that reaches this pipeline's checkpoints, for hints (state-reset-command.ts). */
  readonly resetCommand: string;
  /** The sink writes one NDJSON file (relative to the output, `{dataset}` in it): the lake path of its streams. */
  readonly ndjsonPath?: string;
}

export interface StateTargets {
  readonly targets: StateTarget[];
  readonly outputDir: string;
  readonly stateDir: string;
  /** `--output` is a local path that does not exist (a typo, or no run yet): said as such. */
  readonly outputAbsent: boolean;
  /** `--state-dir` was given and is a local folder that does not exist: said as such. */
  readonly stateDirAbsent: boolean;
  /** Destroys the S3 clients the targets opened: call when the command is done. */
  close(): void;
}

export async function stateTargets(names: readonly string[], args: OutputArgs, env: NodeJS.ProcessEnv): Promise<StateTargets> {
  const outputDir = args.output ?? DEFAULT_OUTPUT_DIR;
  const { absent: outputAbsent } = await checkStateOutput(outputDir);
  const { absent: stateDirAbsent } = await checkStateDirFlag(args['state-dir']);
  const s3Endpoint = (args as { 's3-endpoint'?: string })['s3-endpoint'];
  // One storage per output a target names (a pipeline file may name another output than --output).
  const lakes = new Map<string, CommandLake>();
  const lakeOf = async (output: string): Promise<CommandLake> => {
    let lake = lakes.get(output);
    if (lake === undefined) lakes.set(output, (lake = await commandLake(output, env, { s3Endpoint })));
    return lake;
  };
  const close = () => {
    for (const lake of lakes.values()) lake.close();
  };
  const main = await lakeOf(outputDir);
  const state = commandState(main, args['state-dir']);
  const stateDir = state.where;
  const target = (pipeline: string): StateTarget => ({
    pipeline,
    outputDir,
    stateDir,
    state,
    lake: main.storage,
    keepsState: true,
    resetCommand: stateResetCommand(pipeline, outputDir, stateDir, s3Endpoint),
  });
  try {
    const found = await targetsOf(names, args, env, { state, stateDir, target, lakeOf, s3Endpoint });
    refuseIdleS3Endpoint(s3Endpoint, [outputDir, ...found.targets.map((t) => t.outputDir)]);
    return { ...found, outputDir, stateDir, outputAbsent, stateDirAbsent, close };
  } catch (error) {
    close();
    throw error;
  }
}

async function targetsOf(
  names: readonly string[],
  args: OutputArgs,
  env: NodeJS.ProcessEnv,
  at: { state: StateLocation; stateDir: string; target: (pipeline: string) => StateTarget; lakeOf: (output: string) => Promise<CommandLake>; s3Endpoint: string | undefined },
): Promise<{ targets: StateTarget[] }> {
  const { state, stateDir } = at;
  if (names.length === 0) return { targets: (await checkpointPipelines(state)).map(at.target) };
  const targets: StateTarget[] = [];
  for (const name of names) {
    try {
      const job = await loadJob(name, { output: args.output, 'state-dir': args['state-dir'] }, env);
      const sink = job.pipeline.sink as { type: string; path?: string };
      const path = sink.type === 'ndjson' && sink.path !== undefined && sink.path !== 'stdout' && sink.path !== '-' ? sink.path : undefined;
      const lake = await at.lakeOf(job.resolved.settings.outputDir);
      const jobState = commandState(lake, job.resolved.settings.stateDir);
      targets.push({
        pipeline: job.pipeline.name,
        outputDir: job.resolved.settings.outputDir,
        stateDir: jobState.where,
        state: jobState,
        lake: lake.storage,
        file: job.ref.display,
        keepsState: keepsState(job.pipeline, registry),
        resetCommand: stateResetCommand(job.pipeline.name, job.resolved.settings.outputDir, jobState.where, at.s3Endpoint),
        ...(path !== undefined ? { ndjsonPath: path } : {}),
      });
    } catch (error) {
      // Not a pipeline file: the name of a pipeline's state (a pipeline file that is gone, say).
      // Neither (a typo): exit 2 naming what there is, not an empty answer.
      if (!(error instanceof UsageError) || !PIPELINE_NAME.test(name)) throw error;
      const known = await checkpointPipelines(state);
      if (!known.includes(name)) {
        // A typo of a pipeline that has checkpoints here gets its name, as `run` offers a pipeline's.
        const near = didYouMean(name, known);
        throw new UsageError(
          `pipeline "${name}" not found: no pipeline file of that name, and no checkpoints for it under ${stateDir}${near !== undefined ? `; did you mean ${near}?` : ''}`,
          known.length > 0 ? `pipelines with checkpoints there: ${known.join(', ')}` : error.hint,
        );
      }
      targets.push(at.target(name));
    }
  }
  return { targets };
}
