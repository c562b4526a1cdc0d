import type { Argv, CommandModule } from 'yargs';
import type { PlanArgs } from '../actions/plan.js';
import { clockOptions, coordinatorOption, dataOptions, outputOptions, PRECEDENCE_EPILOGUE, serviceOptions } from '../shared-options.js';

export const planCommand: CommandModule<object, PlanArgs> = {
  command: 'plan <pipeline...>',
  describe: 'Show what a run would send: requests per endpoint, share of today\'s quota, ETA, partitions (no request is sent)',
  builder: (y: Argv<object>) =>
    clockOptions(dataOptions(outputOptions(coordinatorOption(serviceOptions(y)))), { data: true })
      .positional('pipeline', { type: 'string', array: true, default: undefined, describe: 'Pipeline file or name' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the plans as one JSON document on stdout' })
      .example('$0 plan kline-backfill', 'Cost of the shipped backfill with the default plan')
      .example('$0 plan kline-backfill --plan free --since 365d', 'How many days a year of history takes on the Free plan')
      .epilogue(PRECEDENCE_EPILOGUE) as unknown as Argv<PlanArgs>,
  handler: async (args) => {
    const { planAction } = await import('../actions/plan.js');
    process.exitCode = await planAction(args);
  },
};
