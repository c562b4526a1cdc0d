import type { Argv, CommandModule } from 'yargs';
import { describeError, formatError } from '../describe-error.js';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { packageVersion } from '../package-version.js';
import { loadJob } from '../pipeline-job.js';
import { createTerminal } from '../terminal.js';

interface ValidateArgs {
  pipeline: string[];
  json: boolean;
  quiet: boolean;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate <pipeline...>',
  describe: 'Check pipeline files without running them (every problem with file:line:column)',
  builder: (y: Argv<object>) =>
    y
      .positional('pipeline', { type: 'string', array: true, describe: 'Pipeline file or name' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout: {valid, pipelines: [{file, valid, problems}]}' })
      .option('quiet', { type: 'boolean', alias: 'q', default: false, describe: 'Print only problems' })
      .example('$0 validate pipelines/*.yaml', 'Check every pipeline of a folder')
      .example('$0 validate my-pipeline.yaml --json', 'Problems as JSON for an editor or CI')
      .epilogue('Exit codes: 0 every pipeline is valid, 2 at least one is not.') as unknown as Argv<ValidateArgs>,
  handler: async (args) => {
    const terminal = createTerminal();
    const results: { file: string; name?: string; valid: boolean; problems: string[] }[] = [];
    for (const text of args.pipeline) {
      try {
        // No flags: validation is of the file as written.
        const job = await loadJob(text, {}, {});
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
    process.exitCode = valid ? EXIT_OK : EXIT_USAGE;
  },
};
