import type { Argv, CommandModule } from 'yargs';
import type { RunCommandArgs } from '../actions/run.js';
import { metricsOptions } from '../metrics-options.js';
import { clockOptions, coordinatorOption, dataOptions, outputOptions, PRECEDENCE_EPILOGUE, reportOptions, serviceOptions, stopTimeoutOption } from '../shared-options.js';

export const runCommand: CommandModule<object, RunCommandArgs> = {
  command: 'run <pipeline...>',
  describe: 'Run pipelines: fetch, transform and commit data files (resumable)',
  builder: (y: Argv<object>) =>
    metricsOptions(stopTimeoutOption(reportOptions(clockOptions(dataOptions(outputOptions(coordinatorOption(serviceOptions(y)))), { data: true })), 'commit finished work'))
      .positional('pipeline', { type: 'string', array: true, default: undefined, describe: 'Pipeline file, or the name of a shipped or ./pipelines pipeline' })
      .option('coordinator-patience', {
        type: 'number',
        group: 'Service:',
        describe: 'With --coordinator: seconds a request waits for a Redis that went away mid-run (a restart, a failover) before the run commits what it has and stops (exit 1; default 15); nothing is sent meanwhile',
      })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Plan only: print requests, quota share and ETA, send nothing' })
      .option('state', {
        type: 'boolean',
        group: 'Output:',
        describe:
          'NDJSON: keep checkpoints, so the next run writes only rows after those this run\'s reader took (default on stdout: none, every run writes its whole window; an NDJSON file keeps them unless --no-state, which rewrites it with the run\'s window)',
      })
      .option('table', {
        choices: ['delta', 'hive'] as const,
        group: 'Output:',
        describe: 'Parquet: also keep a Delta Lake log per dataset (delta), or plain hive files (hive); default: the pipeline\'s sink.table, else what the dataset already is, else delta on object storage and hive in a folder',
      })
      .option('full-refresh', {
        type: 'boolean',
        default: false,
        describe: 'Fetch again from since as if nothing were held; each stream\'s checkpoint is replaced at the first commit that covers it (asks first on a terminal)',
      })
      .option('yes', { type: 'boolean', alias: 'y', default: false, describe: 'With --full-refresh: do not ask (required when stdin is not a terminal)' })
      .example('$0 run demo', 'Run the shipped demo pipeline against the built-in emulator')
      .example('QUOTELAKE_BASE_URL=https://… QUOTELAKE_TOKEN=… QUOTELAKE_PLAN=basic $0 run pipelines/kline-backfill.yaml', 'Run against a real service')
      .example('$0 run kline-backfill --codes BTCUSDT,ETHUSDT --since 7d --format ndjson > bars.ndjson', 'Override codes and span; stream NDJSON to stdout (each run writes the whole span)')
      .example('$0 run kline-backfill --format ndjson --state | jq -c .', 'Keep state: each run writes only bars after those the last run\'s reader took')
      .example('$0 run snapshots --json --quiet', 'Machine-readable summary on stdout')
      .example('$0 run kline-backfill --metrics-textfile /var/lib/node_exporter/textfile/quotelake.prom', 'Metrics for node_exporter\'s textfile collector')
      .epilogue(PRECEDENCE_EPILOGUE) as unknown as Argv<RunCommandArgs>,
  handler: async (args) => {
    const { runHandler } = await import('../actions/run.js');
    process.exitCode = await runHandler(args);
  },
};
