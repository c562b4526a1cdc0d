import type { Argv, CommandModule } from 'yargs';
import type { QueueArgs } from '../actions/queue.js';
import { DROP_WHAT } from '../queue/drop-what.js';
import { coordinatorOption } from '../queue/coordinator.js';
import { clockOptions, serviceOptions } from '../shared-options.js';

/** What `queue` does; the second word of its --json documents' `command` (`queue drop`). */
export const QUEUE_ACTIONS = ['status', 'schedules', 'unschedule', 'drop'] as const;

export const queueCommand: CommandModule<object, QueueArgs> = {
  command: 'queue <action> [name]',
  describe: 'The Redis queue of slices: status (counts and ETA), schedules, unschedule <name>, drop <pipeline>|--all',
  builder: (y: Argv<object>) =>
    coordinatorOption(clockOptions(serviceOptions(y)))
      .positional('action', { choices: QUEUE_ACTIONS, describe: 'What to show or do' })
      .positional('name', { type: 'string', describe: 'The schedule to remove (unschedule); the pipeline whose jobs to drop (drop)' })
      .option('all', { type: 'boolean', default: false, describe: 'drop: every pipeline\'s jobs' })
      .option('only', { type: 'string', array: true, choices: DROP_WHAT, describe: 'drop: only these (default all three): waiting (and delayed) slices, failed jobs, schedules' })
      .option('yes', { type: 'boolean', alias: 'y', default: false, describe: 'drop: do not ask (required when stdin is not a terminal)' })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout (status: waiting, active, completed, failed and eta)' })
      .example('$0 queue status --json', 'Counts of slices and the ETA at the plan\'s rate (--plan, default professional)')
      .example('$0 queue schedules', 'Schedules with their next firings')
      .example('$0 queue unschedule kline-backfill', 'Remove a schedule')
      .example('$0 queue drop kline-backfill', 'Take its waiting and failed slices and its schedules off the queue (asks first; running slices finish)')
      .example('$0 queue drop --all --only failed --yes', 'Every failed job, from a script') as unknown as Argv<QueueArgs>,
  handler: async (args) => {
    const { queueHandler } = await import('../actions/queue.js');
    process.exitCode = await queueHandler(args);
  },
};
