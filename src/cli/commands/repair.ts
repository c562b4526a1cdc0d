import { DATASETS } from '../../core/records.js';
import type { Argv, CommandModule } from 'yargs';
import type { RepairArgs } from '../actions/repair.js';
import { logOptions, s3EndpointOption } from '../shared-options.js';

export const repairCommand: CommandModule<object, RepairArgs> = {
  command: 'repair',
  describe: 'Drop the live files of a lake that are missing or cannot be read, so commits into their partitions go on; write a damaged layout file again',
  builder: (y: Argv<object>) =>
    logOptions(y)
      .option('output', { type: 'string', default: 'output', describe: 'Output root (the lake): a folder or s3://bucket/prefix' })
      .option('s3-endpoint', s3EndpointOption)
      .option('dataset', { type: 'string', choices: DATASETS, describe: 'Only this dataset' })
      .option('state-dir', { type: 'string', describe: "Where this output's runs keep their checkpoints, to take a lost layout file's lake id from (default: <output>/.state; for s3://bucket/prefix, the lake's _quotelake/state/)" })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Name the files it would drop; change nothing' })
      .option('yes', { type: 'boolean', alias: 'y', default: false, describe: 'Drop them (their rows leave the lake): needed unless --dry-run' })
      .option('clock', { type: 'string', describe: 'ISO instant taken as "now" (the commit time)' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 repair --output /data/lake --dry-run', 'Read every live file and name those that are missing or damaged')
      .example('$0 repair --output /data/lake --yes', 'Drop them, then fetch their series again as it says')
      .epilogue(
        'Reads every live file whole. A missing or undecodable file leaves the manifest (and a Delta table\'s log, as a remove) ' +
          'in one journaled commit, like a replaced file; its rows leave the lake, and the output names the series and the ' +
          '"quotelake state reset" that fetches them again. A damaged or lost _quotelake/layout.json is written again with the lake id ' +
          "the pipelines' checkpoints name, so they resume where they were. Takes the output lock (not with --dry-run). Exit codes: 0 done, 1 failed, 2 usage.",
      ) as unknown as Argv<RepairArgs>,
  handler: async (args) => {
    const { repairAction } = await import('../actions/repair.js');
    process.exitCode = await repairAction(args);
  },
};
