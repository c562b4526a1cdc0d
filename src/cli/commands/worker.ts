import type { Argv, CommandModule } from 'yargs';
import type { WorkerArgs } from '../actions/worker.js';
import { metricsOptions } from '../metrics-options.js';
import { coordinatorOption } from '../queue/coordinator.js';
import { clockOptions, logOptions, s3EndpointOption, serviceOptions, stopTimeoutOption } from '../shared-options.js';

export const workerCommand: CommandModule<object, WorkerArgs> = {
  command: 'worker',
  describe: 'Run slices from the Redis queue into the lake (on any host; start as many as you like)',
  builder: (y: Argv<object>) =>
    metricsOptions(stopTimeoutOption(logOptions(coordinatorOption(clockOptions(serviceOptions(y)))), 'finish its running slices (or put them back on the queue)'))
      .option('s3-endpoint', s3EndpointOption)
      .option('concurrency', { type: 'number', default: 4, describe: 'Slices fetched side by side in this process (1 to 64); those fetched while the lake is busy are committed together' })
      .option('stalled-timeout', {
        type: 'number',
        default: 30,
        describe: 'Seconds after which the slice of a worker that stopped answering (killed, host lost) is given to another worker (at least 1)',
      })
      .option('until-empty', { type: 'boolean', default: false, describe: 'Exit once the queue holds no waiting or running slice (batch use; 75 when what waits waits for the daily quota); default: run until stopped' })
      .option('coordinator-patience', {
        type: 'number',
        describe: 'With --until-empty: seconds without a connection to Redis after which the worker stops (exit 1, its slices back on the queue; default 15), its requests waiting for Redis until then; a Redis restart takes a few',
      })
      .example('QUOTELAKE_REDIS_URL=redis://10.0.0.5:6379 $0 worker --concurrency 4', 'A worker on this host')
      .example('$0 worker --until-empty', 'Drain the queue, then exit 0')
      .example('QUOTELAKE_TOKENS=tokenA:professional,tokenB:premium $0 worker', 'Slices spread over a token pool, each token paced by its own plan') as unknown as Argv<WorkerArgs>,
  handler: async (args) => {
    const { workerHandler } = await import('../actions/worker.js');
    process.exitCode = await workerHandler(args);
  },
};
