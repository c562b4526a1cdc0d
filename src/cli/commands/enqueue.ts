import type { Argv, CommandModule } from 'yargs';
import type { EnqueueArgs } from '../actions/enqueue.js';
import { SLICE_REQUESTS } from '../../queue/group-slices.js';
import { coordinatorOption } from '../queue/coordinator.js';
import { clockOptions, dataOptions, outputOptions, serviceOptions } from '../shared-options.js';

export const enqueueCommand: CommandModule<object, EnqueueArgs> = {
  command: 'enqueue <pipeline>',
  describe: 'Split a K-line run into partition-aligned slices on the Redis queue for workers (now, or on a cron schedule)',
  builder: (y: Argv<object>) =>
    coordinatorOption(clockOptions(dataOptions(outputOptions(serviceOptions(y)), ['parquet', 'arrow']), { data: true }))
      .positional('pipeline', { type: 'string', demandOption: true, describe: 'Pipeline file or a shipped pipeline\'s name; a worker reads the file this resolves to (absolute), else this argument from its own folder' })
      .option('every', { type: 'string', describe: 'Enqueue the run on this cron schedule instead of now, e.g. "0 2 * * *"; upserted under --name' })
      .option('tz', { type: 'string', describe: 'Time zone of the --every pattern (IANA, default UTC), e.g. Europe/London' })
      .option('name', { type: 'string', describe: 'Name of the schedule (default: the pipeline\'s name); the same name replaces it' })
      .option('slice-requests', {
        type: 'number',
        default: SLICE_REQUESTS,
        describe: 'Codes of one interval and partition share a slice while its planned requests stay within this many (what a slice holds in memory, and what a killed worker fetches again)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 enqueue kline-backfill --since 2026-01-01 --coordinator redis://127.0.0.1:6379', 'One slice per partition (a UTC day of intraday bars) and group of codes; enqueueing again adds nothing already queued or done')
      .example('$0 enqueue kline-backfill --since 2d --every "30 1 * * *" --tz Europe/London', 'Every day at 01:30 London time, the last two days')
      .epilogue('Workers ("quotelake worker") run the slices; "quotelake queue status" shows what is left. See README, "Running on several machines".') as unknown as Argv<EnqueueArgs>,
  handler: async (args) => {
    const { enqueueHandler } = await import('../actions/enqueue.js');
    process.exitCode = await enqueueHandler(args);
  },
};
