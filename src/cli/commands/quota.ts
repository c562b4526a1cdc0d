import type { Argv, CommandModule } from 'yargs';
import type { QuotaArgs } from '../actions/quota.js';
import { clockOptions, coordinatorOption, outputOptions, serviceOptions } from '../shared-options.js';

export const quotaCommand: CommandModule<object, QuotaArgs> = {
  command: 'quota',
  describe: 'Show today\'s request use and the reset time per token (from the quota files in the state dir)',
  builder: (y: Argv<object>) =>
    clockOptions(outputOptions(coordinatorOption(serviceOptions(y))))
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 quota', 'Use per token under output/.state/quota/')
      .example('QUOTELAKE_TOKEN=… $0 quota --state-dir /data/state', 'Name your token (redacted) instead of its hash')
      .example('$0 quota --coordinator redis://127.0.0.1:6379', 'Also the counts every process and host shares through Redis')
      .epilogue(
        'Quota files are keyed by a hash of the token; the token itself is never stored. Tokens given by --token or QUOTELAKE_TOKEN and the tokens of a pool (QUOTELAKE_TOKENS, --tokens-file: one line each, also before their first request) are shown redacted, the demo tokens of the built-in emulator by name (demo-professional), others by their hash. Counts are what this machine sent; the service\'s own count can be higher if the token is used elsewhere.',
      ) as unknown as Argv<QuotaArgs>,
  handler: async (args) => {
    const { quotaAction } = await import('../actions/quota.js');
    process.exitCode = await quotaAction(args);
  },
};
