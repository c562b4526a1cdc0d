/** --metrics-port, --metrics-host, --metrics-textfile, --metrics-interval: declared once for run and worker. */
import type { Argv } from 'yargs';
import { checkListenHost } from './listen-host-check.js';
import { UsageError } from './usage-error.js';

export interface MetricsArgs {
  'metrics-port'?: number | undefined;
  'metrics-host'?: string | undefined;
  'metrics-textfile'?: string | undefined;
  'metrics-interval'?: number | undefined;
}

const METRICS = 'Metrics:';

/** Between textfile writes while a command runs, by default. */
export const DEFAULT_METRICS_INTERVAL_S = 15;

export function metricsOptions<T>(y: Argv<T>): Argv<T & MetricsArgs> {
  return y
    .option('metrics-port', {
      type: 'number',
      group: METRICS,
      describe: 'Serve Prometheus metrics at http://HOST:PORT/metrics while the command runs (0 picks a free port; the URL is printed on stderr)',
    })
    .option('metrics-host', {
      type: 'string',
      group: METRICS,
      describe: 'Address of the metrics endpoint (default 127.0.0.1; 0.0.0.0 for every interface)',
    })
    .option('metrics-textfile', {
      type: 'string',
      group: METRICS,
      describe: 'Write the metrics to this file (node_exporter textfile collector: name it *.prom), atomically, every --metrics-interval seconds and at the end',
    })
    .option('metrics-interval', {
      type: 'number',
      group: METRICS,
      describe: `Seconds between --metrics-textfile writes while running (default ${DEFAULT_METRICS_INTERVAL_S})`,
    }) as Argv<T & MetricsArgs>;
}

export interface MetricsSettings {
  readonly port?: number;
  readonly host?: string;
  readonly textfile?: string;
  readonly intervalMs: number;
}

/** The settings, or undefined when no metrics were asked for; a UsageError names a bad value. */
export function metricsSettings(args: MetricsArgs): MetricsSettings | undefined {
  const port = args['metrics-port'];
  const host = args['metrics-host'];
  const textfile = args['metrics-textfile'];
  const interval = args['metrics-interval'];
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) {
    throw new UsageError(`--metrics-port must be a port number 0..65535, got ${String(port)}`);
  }
  if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) {
    throw new UsageError(`--metrics-interval must be a number of seconds above 0, got ${String(interval)}`);
  }
  if (textfile !== undefined && textfile.trim() === '') throw new UsageError('--metrics-textfile needs a file path');
  if (host !== undefined && port === undefined) throw new UsageError('--metrics-host needs --metrics-port');
  // Node would take an empty host for every interface: the endpoint opened by an unset variable.
  if (host !== undefined && host.trim() === '') throw new UsageError('--metrics-host needs an address (127.0.0.1 by default; 0.0.0.0 for every interface)');
  if (host !== undefined) checkListenHost(host, '--metrics-host');
  if (interval !== undefined && textfile === undefined) throw new UsageError('--metrics-interval needs --metrics-textfile');
  if (port === undefined && textfile === undefined) return undefined;
  return {
    ...(port !== undefined ? { port } : {}),
    ...(host !== undefined ? { host } : {}),
    ...(textfile !== undefined ? { textfile } : {}),
    intervalMs: (interval ?? DEFAULT_METRICS_INTERVAL_S) * 1000,
  };
}
