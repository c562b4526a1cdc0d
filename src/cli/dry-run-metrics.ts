/**
 * `run --dry-run` with --metrics-port or --metrics-textfile: a dry run sends no request, so there is
 * nothing to count. The endpoint is not served and the textfile not written (a file of zeros would
 * replace the last real run's counts, which a dashboard reads); the stderr line says so, so the
 * options are not taken for working. A textfile path the run would refuse is refused here too, as
 * the plan is the run's.
 */
import type { MetricsSettings } from './metrics-options.js';
import { refuseUnusablePath } from './metrics-textfile-path.js';
import type { Terminal } from './terminal.js';

export async function sayMetricsUnusedInDryRun(terminal: Terminal, settings: MetricsSettings): Promise<void> {
  if (settings.textfile !== undefined) await refuseUnusablePath(settings.textfile);
  const unused = [
    ...(settings.port !== undefined ? ['--metrics-port is not served'] : []),
    ...(settings.textfile !== undefined ? [`--metrics-textfile is not written (${settings.textfile} keeps what it holds)`] : []),
  ];
  const options = [...(settings.port !== undefined ? ['--metrics-port'] : []), ...(settings.textfile !== undefined ? ['--metrics-textfile'] : [])];
  terminal.notice(`quotelake: a dry run sends no request, so there is nothing to count: ${unused.join(' and ')}`, {
    level: 'warn',
    event: 'dry-run-metrics-unused',
    options,
  });
}
