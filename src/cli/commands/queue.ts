import type { Argv, CommandModule } from 'yargs';
import type { QueueArgs } from '../actions/queue.js';
import { coordinatorOption } from '../queue/coordinator.js';
import { clockOptions, serviceOptions } from '../shared-options.js';

export const queueCommand: CommandModule<object, QueueArgs> = {
  command: 'queue <action> [name]',
  describe: 'The Redis queue of slices: status (counts and ETA), schedules, unschedule <name>',
  builder: (y: Argv<object>) =>
    coordinatorOption(clockOptions(serviceOptions(y)))
      .positional('action', { choices: ['status', 'schedules', 'unschedule'] as const, describe: 'What to show or do' })
      .positional('name', { type: 'string', describe: 'The schedule to remove (unschedule)' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout (status: waiting, active, completed, failed and eta)' })
      .example('$0 queue status --json', 'Counts of slices and the ETA at the plan\'s rate (--plan, default professional)')
      .example('$0 queue schedules', 'Schedules with their next firings')
      .example('$0 queue unschedule kline-backfill', 'Remove a schedule') as unknown as Argv<QueueArgs>,
  handler: async (args) => {
    const { queueHandler } = await import('../actions/queue.js');
    process.exitCode = await queueHandler(args);
  },
};
