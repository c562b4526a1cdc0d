import type { Argv, CommandModule } from 'yargs';
import { EXIT_OK } from '../exit-codes.js';
import { packageVersion } from '../package-version.js';
import { loadJobs } from '../pipeline-job.js';
import { planJob, renderPlan } from '../plan-report.js';
import { chooseTarget } from '../service-target.js';
import {
  dataOptions,
  outputOptions,
  PRECEDENCE_EPILOGUE,
  serviceOptions,
  type DataArgs,
  type OutputArgs,
  type ServiceArgs,
} from '../shared-options.js';
import { emitJson, terminalFor } from './run.js';

interface PlanArgs extends ServiceArgs, OutputArgs, DataArgs {
  pipeline: string[];
  json: boolean;
}

export const planCommand: CommandModule<object, PlanArgs> = {
  command: 'plan <pipeline...>',
  describe: 'Show what a run would send: requests per endpoint, share of today\'s quota, ETA, partitions (no request is sent)',
  builder: (y: Argv<object>) =>
    dataOptions(outputOptions(serviceOptions(y)))
      .positional('pipeline', { type: 'string', array: true, describe: 'Pipeline file or name' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the plans as one JSON document on stdout' })
      .example('$0 plan kline-backfill', 'Cost of the shipped backfill with the default plan')
      .example('$0 plan kline-backfill --plan free --since 365d', 'How many days a year of history takes on the Free plan')
      .epilogue(PRECEDENCE_EPILOGUE) as unknown as Argv<PlanArgs>,
  handler: async (args) => {
    const terminal = terminalFor(args, process.env);
    const jobs = await loadJobs(args.pipeline, args, process.env);
    for (const j of jobs) terminal.addSecret(chooseTarget(j.resolved).token);
    const reports = [];
    for (const job of jobs) reports.push(await planJob(job));
    if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'plan', exitCode: EXIT_OK, plans: reports }, false);
    else for (const r of reports) terminal.out(`${renderPlan(r)}\n`);
    process.exitCode = EXIT_OK;
  },
};
