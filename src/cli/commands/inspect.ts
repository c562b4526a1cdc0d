import type { Argv, CommandModule } from 'yargs';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { inspectOutput } from '../inspect/inspect-output.js';
import { renderInspect } from '../inspect/render-inspect.js';
import { packageVersion } from '../package-version.js';
import { createTerminal } from '../terminal.js';
import { UsageError } from '../usage-error.js';

interface InspectArgs {
  output: string;
  'state-dir'?: string | undefined;
  runs: number;
  json: boolean;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect [output]',
  describe: 'Show what an output folder holds: datasets, partitions, rows and time range per series, last runs',
  builder: (y: Argv<object>) =>
    y
      .positional('output', { type: 'string', default: 'output', describe: 'Output root' })
      .option('state-dir', { type: 'string', describe: 'State directory (default <output>/.state)' })
      .option('runs', { type: 'number', default: 5, describe: 'How many of the last runs to show' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 inspect output', 'Datasets and last runs of the default output')
      .example('$0 inspect /data/lake --json | jq ".datasets[].series"', 'Time range per series as JSON')
      .epilogue('Files are read back through parquet-wasm and apache-arrow; rows that disagree with the manifest are reported as problems (exit 1).') as unknown as Argv<InspectArgs>,
  handler: async (args) => {
    const terminal = createTerminal();
    if (!Number.isInteger(args.runs) || args.runs < 0) throw new UsageError(`--runs must be a whole number, got ${String(args.runs)}`);
    const stateDir = args['state-dir'] ?? `${args.output.replace(/\/+$/, '')}/.state`;
    let info;
    try {
      info = await inspectOutput(args.output, stateDir, args.runs);
    } catch (e) {
      throw new UsageError((e as Error).message, 'give the output folder of a run, e.g. "quotelake inspect output"');
    }
    if (args.json) terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'inspect', ...info }, null, 2)}\n`);
    else terminal.out(`${renderInspect(info)}\n`);
    process.exitCode = info.datasets.some((d) => d.problems.length > 0) ? EXIT_FAILURE : EXIT_OK;
  },
};
