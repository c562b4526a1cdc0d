/** `quotelake validate`: loaded only when the command runs. */
import { describeError, formatError } from '../describe-error.js';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { packageVersion } from '../../lake/package-version.js';
import { loadPipeline } from '../../config/load-pipeline.js';
import type { PipelineLoader } from '../../config/pipeline-cache.js';
import { loadJob } from '../pipeline-job.js';
import { createTerminal } from '../terminal.js';

export interface ValidateArgs {
  pipeline: string[];
  json: boolean;
  quiet: boolean;
  /** Plans file whose custom plans service.plan may name, as for run (it replaces service.plansFile). */
  'plans-file'?: string | undefined;
}

export async function validateAction(args: ValidateArgs): Promise<number> {
    const terminal = createTerminal();
    const results: { file: string; name?: string; valid: boolean; problems: string[] }[] = [];
    for (const text of args.pipeline) {
      try {
        // No other flag: validation is of the file as written. A custom plan the file names is looked
        // up where plan and run would look: --plans-file, else its plansFile, else QUOTELAKE_PLANS_FILE.
        const env: NodeJS.ProcessEnv = {};
        const load: PipelineLoader = async (file, registry) => {
          const pipeline = await loadPipeline(file, registry);
          if (pipeline.service?.plansFile === undefined) env.QUOTELAKE_PLANS_FILE = process.env.QUOTELAKE_PLANS_FILE;
          return pipeline;
        };
        const job = await loadJob(text, { 'plans-file': args['plans-file'] }, env, process.cwd(), load);
        results.push({ file: job.ref.display, name: job.pipeline.name, valid: true, problems: [] });
        if (!args.quiet && !args.json) terminal.err(`quotelake: ${job.ref.display}: valid (pipeline ${job.pipeline.name}, source ${job.pipeline.source.type}, sink ${job.pipeline.sink.type})`);
      } catch (e) {
        const d = describeError(e);
        if (d.exitCode !== EXIT_USAGE) throw e;
        results.push({ file: text, valid: false, problems: d.message.split('\n').filter((l) => !/^\d+ problems in the pipeline:$/.test(l)) });
        if (!args.json) terminal.err(formatError(d));
      }
    }
    const valid = results.every((r) => r.valid);
    if (args.json) terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'validate', valid, pipelines: results }, null, 2)}\n`);
    return valid ? EXIT_OK : EXIT_USAGE;
}
