import type { Argv, CommandModule } from 'yargs';
import type { InitArgs } from '../actions/init.js';

/**
 * The registry's source and sink types, for help and shell completion. Written out because loading
 * the registry would slow every command's start and every completion; a test holds them equal to it,
 * and the action checks the given type against the registry itself.
 */
export const INIT_SOURCE_TYPES = ['kline-history', 'kline-latest', 'depth-snapshot', 'trade-snapshot', 'trading-halts'] as const;
export const INIT_SINK_TYPES = ['parquet', 'arrow', 'ndjson'] as const;

export const initCommand: CommandModule<object, InitArgs> = {
  command: 'init [name]',
  describe: 'Write a new commented pipeline file that validates (pipelines/<name>.yaml)',
  builder: (y: Argv<object>) =>
    y
      .positional('name', { type: 'string', describe: 'Pipeline name, [a-z0-9-]+ (default: the source type); the file is <dir>/<name>.yaml' })
      .option('source', { type: 'string', default: 'kline-history', describe: `Source type: ${INIT_SOURCE_TYPES.join(', ')}` })
      .option('sink', { type: 'string', default: 'parquet', describe: `Sink type: ${INIT_SINK_TYPES.join(', ')}` })
      .option('dir', { type: 'string', default: 'pipelines', describe: 'Folder to write into (./pipelines makes it runnable by name)' })
      .option('force', { type: 'boolean', default: false, describe: 'Replace an existing file of that name' })
      .example('$0 init my-klines', 'K-line history into Parquet: pipelines/my-klines.yaml')
      .example('$0 init halts-arrow --source trading-halts --sink arrow', 'Trading halts into Arrow files')
      .example('$0 init --source trade-snapshot --dir ~/lake/pipelines', 'Elsewhere: ~/lake/pipelines/trade-snapshot.yaml')
      .epilogue('Exit codes: 0 written, 2 a wrong name or type, or the file exists (without --force).') as unknown as Argv<InitArgs>,
  handler: async (args) => {
    const { initAction } = await import('../actions/init.js');
    process.exitCode = await initAction(args);
  },
};
