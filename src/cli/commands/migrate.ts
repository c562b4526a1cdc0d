import type { Argv, CommandModule } from 'yargs';
import type { MigrateArgs } from '../actions/migrate.js';
import { clockOptions, logOptions } from '../shared-options.js';

export const migrateCommand: CommandModule<object, MigrateArgs> = {
  command: 'migrate',
  describe: 'Bring an output folder to the current lake layout (a lake written by quotelake 0.1.0, or an interrupted migration)',
  builder: (y: Argv<object>) =>
    logOptions(clockOptions(y))
      .option('output', { type: 'string', default: 'output', describe: 'Output root' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Say what would be migrated; change nothing' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 migrate --output /data/lake --dry-run', 'How many files a migration would rewrite')
      .example('$0 migrate --output /data/lake', 'Migrate now (a run would do it too, with a notice)')
      .epilogue(
        'Layout 2 keeps bookkeeping under <output>/_quotelake/ and no hive key (interval, exchange) inside the files. The migration is journaled: if it is stopped, the next migrate or run finishes it. It takes the output lock, so no run writes meanwhile. A lake of a newer layout than this quotelake knows is refused (exit 1): upgrade quotelake.',
      ) as unknown as Argv<MigrateArgs>,
  handler: async (args) => {
    const { migrateAction } = await import('../actions/migrate.js');
    process.exitCode = await migrateAction(args);
  },
};
