import type { Argv, CommandModule } from 'yargs';
import type { ValidateArgs } from '../actions/validate.js';
import { plansFileOption } from '../shared-options.js';

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate <pipeline...>',
  describe: 'Check pipeline files without running them (every problem with file:line:column)',
  builder: (y: Argv<object>) =>
    y
      .positional('pipeline', { type: 'string', array: true, default: undefined, describe: 'Pipeline file or name' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout: {valid, pipelines: [{file, valid, problems}]}' })
      .option('quiet', { type: 'boolean', alias: 'q', default: false, describe: 'Print only problems' })
      .option('plans-file', plansFileOption)
      .example('$0 validate pipelines/*.yaml', 'Check every pipeline of a folder')
      .example('$0 validate my-pipeline.yaml --json', 'Problems as JSON for an editor or CI')
      .example('$0 validate my-pipeline.yaml --plans-file plans.yaml', 'A pipeline whose service.plan is a custom plan of plans.yaml')
      .epilogue('Exit codes: 0 every pipeline is valid, 2 at least one is not.') as unknown as Argv<ValidateArgs>,
  handler: async (args) => {
    const { validateAction } = await import('../actions/validate.js');
    process.exitCode = await validateAction(args);
  },
};
