/**
 * The metrics of one command, exposed the ways the user asked: a `/metrics` endpoint (with the Node
 * process metrics, which a scraper of a live process wants) and/or a textfile for node_exporter
 * (without them).
 * Started before the first run, stopped after the last: the textfile then holds the final counts.
 */
import { dirname, resolve } from 'node:path';
import { isTempFile } from '../core/atomic-write.js';
import { environmentErrorOf, type FixOptions } from '../core/environment-error.js';
import { EnvironmentError } from '../core/errors.js';
import { createMetrics, serveMetrics, startMetricsTextfile, type MetricsServer, type MetricsTextfile, type QuotelakeMetrics } from '../runtime/metrics/index.js';
import type { MetricsSettings } from './metrics-options.js';
import { missingFolder, refuseUnusablePath } from './metrics-textfile-path.js';
import { textfileFailureNotices } from './textfile-failure-notices.js';
import type { NoticeFields } from './terminal.js';

export interface MetricsExposure {
  readonly metrics: QuotelakeMetrics;
  /** The endpoint's URL, when one is served. */
  readonly url?: string;
  /** Writes the textfile now, when there is one (a hard stop's last words). */
  flush(): Promise<void>;
  /** Final textfile write, then the endpoint closes. */
  stop(): Promise<void>;
}

/** `say` gets each line with its notice (json-notices.ts), and its text with a hint line where it has one: where the metrics are, or a textfile that could not be written. */
export async function startMetricsExposure(settings: MetricsSettings, say: (line: string, notice: NoticeFields, asText?: string) => void): Promise<MetricsExposure> {
  // Process metrics only with an endpoint; the textfile leaves them out either way (metrics-textfile.ts).
  if (settings.textfile !== undefined) await refuseUnusablePath(settings.textfile);
  const metrics = createMetrics({ processMetrics: settings.port !== undefined });
  let server: MetricsServer | undefined;
  let textfile: MetricsTextfile | undefined;
  if (settings.port !== undefined) {
    const { host, port } = settings;
    server = await serveMetrics(metrics, { host, port }).catch((error: unknown) => {
      // A host this machine lacks (or whose name does not resolve) is the host's fault whatever the port; anything else, the port's.
      const hostFault = host !== undefined && ['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(String((error as { code?: unknown }).code));
      throw namingTheOption(error, hostFault ? `--metrics-host ${host}` : `--metrics-port ${port}`);
    });
    say(`quotelake metrics on ${server.url}`, { level: 'info', event: 'metrics', url: server.url });
  }
  if (settings.textfile !== undefined) {
    const path = settings.textfile;
    const told = (error: unknown): unknown => textfileError(error, path);
    const notices = textfileFailureNotices(path, settings.intervalMs, told, say);
    textfile = startMetricsTextfile(metrics, {
      path,
      intervalMs: settings.intervalMs,
      // The folder was checked at the start; one removed meanwhile is told, not made again.
      makeFolder: false,
      onError: notices.onError,
      onRecovered: notices.onRecovered,
    });
    // The file exists from the start, so the collector never reports it missing while a run works.
    await textfile.flush().catch(async (error: unknown) => {
      await server?.close();
      throw told(error);
    });
  }
  return {
    metrics,
    ...(server ? { url: server.url } : {}),
    flush: async () => textfile?.flush(),
    async stop() {
      try {
        // Told as the option's, as at the start: the same Node errors would name --output.
        await textfile?.stop().catch((error: unknown) => {
          throw textfileError(error, settings.textfile!);
        });
      } finally {
        await server?.close();
      }
    },
  };
}

/**
 * A textfile write's failure, told as the option's: its folder gone (the temp file beside the
 * target cannot be opened or renamed) is said as at the start, the rest as Node's errors are elsewhere.
 */
function textfileError(error: unknown, path: string): unknown {
  const node = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (node.code === 'ENOENT' && (node.syscall === 'open' || node.syscall === 'rename') && typeof node.path === 'string' && isTempFile(node.path)) {
    return missingFolder(path, dirname(resolve(path)), error);
  }
  return namingTheOption(error, `--metrics-textfile ${path}`);
}

const METRICS_OPTIONS: FixOptions = { path: 'a --metrics-textfile', port: '--metrics-port', host: '--metrics-host' };

/**
 * A port in use or a path under a file would otherwise be told as the run's (`--port`, `--output`):
 * the message leads with the metrics option and its value, and the fix names that option.
 */
function namingTheOption(error: unknown, option: string): unknown {
  const found = environmentErrorOf(error, 'config', METRICS_OPTIONS);
  if (!found) return error;
  // A name that does not resolve is the service's --base-url elsewhere; here it is the endpoint's host.
  const fix = found.code === 'QL_HOST_UNKNOWN' ? 'check --metrics-host for a typo: an address of this machine or a name it resolves (127.0.0.1 by default, 0.0.0.0 for every interface)' : found.fix;
  return new EnvironmentError(found.code, `${option}: ${found.message}`, found.target, fix, { stage: found.stage, cause: error });
}
