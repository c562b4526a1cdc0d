import type { Argv, CommandModule } from 'yargs';
import type { InspectArgs } from '../actions/inspect.js';
import { s3EndpointOption } from '../shared-options.js';

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect [output]',
  describe: 'Show what an output folder holds: datasets, partitions, rows and time range per series, last runs',
  builder: (y: Argv<object>) =>
    y
      .positional('output', { type: 'string', default: 'output', describe: 'Output root: a folder or s3://bucket/prefix' })
      .option('s3-endpoint', s3EndpointOption)
      .option('state-dir', { type: 'string', describe: 'State directory, a local folder (default: <output>/.state; for s3://bucket/prefix the state is in the lake, s3://bucket/prefix/_quotelake/state/)' })
      .option('runs', { type: 'number', default: 5, describe: 'How many of the last runs to show' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .option('coverage', {
        type: 'boolean',
        default: false,
        describe: 'Also the K-line coverage: gaps per series, classified as market closed, halted (from the halt dataset) or unexplained',
      })
      .example('$0 inspect output', 'Datasets and last runs of the default output')
      .example('$0 inspect /data/lake --json | jq ".datasets[].series"', 'Time range per series as JSON')
      .example('$0 inspect output --coverage', 'Which bars are missing, and why')
      .epilogue('Only file footers are read (rows, series ranges, statistics), 16 files at a time, with a progress bar on a terminal. A file the manifest lists that is missing, of another size or another row count is reported as a problem (exit 1).') as unknown as Argv<InspectArgs>,
  handler: async (args) => {
    const { inspectAction } = await import('../actions/inspect.js');
    process.exitCode = await inspectAction(args);
  },
};
