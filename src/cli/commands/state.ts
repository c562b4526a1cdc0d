import type { Argv, CommandModule } from 'yargs';
import type { StateArgs, StateResetArgs } from '../actions/state.js';
import { clockOptions, outputOptions } from '../shared-options.js';

function selection<T>(y: Argv<T>): Argv<T & StateArgs> {
  return clockOptions(outputOptions(y))
    .positional('pipeline', { type: 'string', array: true, describe: 'Pipeline file or name (default: every pipeline with checkpoints under --output)' })
    .option('stream', {
      type: 'string',
      array: true,
      describe: "Only streams matching this glob (* any characters, ? one), against the whole key (kline/BTCUSDT/1m) or the key after its dataset (BTCUSDT/1m); repeatable",
    })
    .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' }) as unknown as Argv<T & StateArgs>;
}

const showCommand: CommandModule<object, StateArgs> = {
  command: 'show [pipeline...]',
  describe: 'Show the checkpoints: per stream how far it got (UTC and local), the last run, where its rows are',
  builder: (y: Argv<object>) =>
    selection(y)
      .example('$0 state show', 'Every pipeline with checkpoints under output/')
      .example("$0 state show kline-backfill --stream 'BTC*' --json", 'The BTC series of one pipeline, as JSON') as unknown as Argv<StateArgs>,
  handler: async (args) => {
    const { stateShowAction } = await import('../actions/state.js');
    process.exitCode = await stateShowAction(args);
  },
};

const resetCommand: CommandModule<object, StateResetArgs> = {
  command: 'reset [pipeline...]',
  describe: 'Forget checkpoints so the next run fetches those streams again from since (data files are kept)',
  builder: (y: Argv<object>) =>
    selection(y)
      .option('yes', { type: 'boolean', alias: 'y', default: false, describe: 'Do not ask (required when stdin is not a terminal)' })
      .example("$0 state reset kline-backfill --stream 'BTC*'", 'Forget the BTC series (asks first)')
      .example('$0 state reset demo --yes', 'Every stream of demo, from a script')
      .epilogue(
        'Data files are not deleted: the next run fetches the reset streams again and merges the rows by key, so nothing is duplicated. Refused while a run holds the output (its lock file). Exit 0 done (or nothing matched), 1 not confirmed or refused, 2 no terminal and no --yes.',
      ) as unknown as Argv<StateResetArgs>,
  handler: async (args) => {
    const { stateResetAction } = await import('../actions/state.js');
    process.exitCode = await stateResetAction(args);
  },
};

/** The words of `state`'s subcommands, for the hint of a usage error (their options are theirs alone). */
export const STATE_SUBCOMMANDS = [showCommand, resetCommand].map((c) => String(c.command).split(' ')[0]!);

export const stateCommand: CommandModule<object, object> = {
  command: 'state',
  describe: "See or reset pipelines' checkpoints (where each stream resumes from)",
  builder: (y: Argv<object>) =>
    y
      .command(showCommand)
      .command(resetCommand)
      .demandCommand(1, 'Name a state command: show or reset.')
      .example('$0 state show', 'Where each stream of the pipelines under output/ resumes from')
      .example("$0 state reset kline-backfill --stream 'BTC*'", 'Forget the BTC series so the next run fetches them again'),
  handler: () => undefined,
};
