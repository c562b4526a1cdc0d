import { DATASETS } from '../../core/records.js';
import type { Argv, CommandModule } from 'yargs';
import type { CompactArgs } from '../actions/compact.js';
import { TABLE_DEFAULTS } from '../../lake/table-defaults.js';
import { logOptions, s3EndpointOption, stopTimeoutOption } from '../shared-options.js';

export const compactCommand: CommandModule<object, CompactArgs> = {
  command: 'compact [pipeline]',
  describe: 'Merge the small files of every partition of a lake and delete replaced files past their grace period',
  builder: (y: Argv<object>) =>
    stopTimeoutOption(logOptions(y), 'commit the partitions already compacted')
      .positional('pipeline', {
        type: 'string',
        describe: "Pipeline file or name: its output, the dataset and format its sink writes, and its sink's maxRowsPerFile, maxBufferedRows and retiredGraceMs (flags given win)",
      })
      .option('output', { type: 'string', describe: "Output root (the lake): a folder or s3://bucket/prefix (default: the pipeline's output, else output/)" })
      .option('s3-endpoint', s3EndpointOption)
      .option('dataset', { type: 'string', choices: DATASETS, describe: 'Only this dataset' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print the plan only; change nothing' })
      .option('grace', {
        type: 'number',
        describe: `Milliseconds a replaced file stays on disk for readers of an older manifest (default: the pipeline sink's retiredGraceMs, else ${TABLE_DEFAULTS.retiredGraceMs})`,
      })
      .option('max-rows-per-file', {
        type: 'number',
        describe: `Rows per file at most (default: the pipeline sink's maxRowsPerFile, else ${TABLE_DEFAULTS.maxRowsPerFile})`,
      })
      .option('max-buffered-rows', {
        type: 'number',
        describe: `Rows held in memory at once; files are no bigger (default: the pipeline sink's maxBufferedRows, else ${TABLE_DEFAULTS.maxBufferedRows})`,
      })
      .option('clock', { type: 'string', describe: 'ISO instant taken as "now" (for the grace period)' })
      .example('$0 compact --output /data/lake', 'Compact every dataset of a lake')
      .example('$0 compact --dataset kline --dry-run', 'Show what compacting kline would do')
      .example('$0 compact pipelines/kline-backfill.yaml', "Compact the dataset that pipeline writes, in its output, with its sink's file bounds")
      .example('$0 compact --output /data/lake --max-rows-per-file 200000', 'Compact a lake whose pipeline writes files of at most 200,000 rows')
      .epilogue(
        'Takes the output lock (not with --dry-run), so it waits for no run: it fails if a run holds the output. ' +
          'SIGINT/SIGTERM stop it between partitions, committing those already compacted. ' +
          'Exit codes: 0 done, 1 failed, 2 usage, 130 stopped by a signal.',
      ) as unknown as Argv<CompactArgs>,
  handler: async (args) => {
    const { compactAction } = await import('../actions/compact.js');
    process.exitCode = await compactAction(args);
  },
};
