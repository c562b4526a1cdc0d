/**
 * The `/metrics` endpoint a Prometheus server scrapes: GET /metrics answers the exposition text;
 * anything else is 404. Loopback by default: counters name endpoints and datasets, which is nobody
 * else's business unless the operator opens it (--metrics-host).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QuotelakeMetrics } from './quotelake-metrics.js';

export interface MetricsServer {
  /** e.g. `http://127.0.0.1:9464/metrics` (the real port when 0 was asked for). */
  readonly url: string;
  close(): Promise<void>;
}

export const DEFAULT_METRICS_HOST = '127.0.0.1';

export async function serveMetrics(metrics: QuotelakeMetrics, options: { host?: string | undefined; port: number }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: try GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics collection failed: ${(error as Error).message}\n`);
      },
    );
  });
  // Scrapes are short: an idle keep-alive connection must not hold the process at its end.
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? DEFAULT_METRICS_HOST;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
