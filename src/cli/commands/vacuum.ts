import { DATASETS } from '../../core/records.js';
import type { Argv, CommandModule } from 'yargs';
import type { VacuumArgs } from '../actions/vacuum.js';
import { s3EndpointOption } from '../shared-options.js';

export const vacuumCommand: CommandModule<object, VacuumArgs> = {
  command: 'vacuum',
  describe: 'Delete the files of each Delta table that its log no longer references, once older than the retention, and its old log entries',
  builder: (y: Argv<object>) =>
    y
      .option('output', { type: 'string', default: 'output', describe: 'Output root (the lake): a folder or s3://bucket/prefix' })
      .option('s3-endpoint', s3EndpointOption)
      .option('dataset', { type: 'string', choices: DATASETS, describe: 'Only this dataset' })
      .option('retention', { type: 'string', default: '168h', describe: 'Keep unreferenced files younger than this (168h, 7d, 30m); shorter than 168h needs --force' })
      .option('log-retention', {
        type: 'string',
        describe:
          'Keep the Delta log\'s entries younger than this: older versions stop being readable; shorter than --retention needs --force. ' +
          'Default: each table\'s delta.logRetentionDuration, else 720h (Delta\'s 30 days), also refused when shorter than --retention; a table whose delta.enableExpiredLogCleanup is false keeps its log',
      })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be deleted; delete nothing' })
      .option('force', { type: 'boolean', default: false, describe: 'Allow a retention shorter than 168h, or a log retention shorter than the retention' })
      .option('clock', { type: 'string', describe: 'ISO instant taken as "now" (for the retention)' })
      .example('$0 vacuum --output /data/lake --dry-run', 'List what vacuum would delete')
      .example('$0 vacuum --output /data/lake --retention 720h', 'Keep 30 days of older snapshots')
      .epilogue(
        'Only Delta tables (datasets with a _delta_log/): removed files (tombstones) older than the retention and files no log names ' +
          '(left by a killed writer) older than the retention; then the log\'s commits and checkpoints before its newest checkpoint older than the log retention ' +
          '(the table stays whole from that checkpoint; versions before it can no longer be read). Never hidden paths nor a live file. ' +
          'Takes the output lock (not with --dry-run). Exit codes: 0 done, 1 failed, 2 usage.',
      ) as unknown as Argv<VacuumArgs>,
  handler: async (args) => {
    const { vacuumAction } = await import('../actions/vacuum.js');
    process.exitCode = await vacuumAction(args);
  },
};
