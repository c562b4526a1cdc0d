/**
 * A loopback proxy in front of the emulator that logs every request as the service receives it:
 * arrival time, token, endpoint, the code of a single-code query and the `ret` answered. It lets a
 * test count requests per token per window at the service side, independently of the client's own
 * counters.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  at: number;
  token: string;
  endpoint: string;
  /** `code/kline_type` of a single-code /kline query, the code alone of another single-code query. */
  code: string | undefined;
  status: number;
  ret: number | undefined;
}

export interface CountingProxy {
  url: string;
  log: Arrival[];
  close(): Promise<void>;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function codeOf(params: URLSearchParams): string | undefined {
  try {
    const query = JSON.parse(params.get('query') ?? '') as { data?: { code?: string; kline_type?: number } };
    const code = query.data?.code;
    return code !== undefined && query.data?.kline_type !== undefined ? `${code}/${query.data.kline_type}` : code;
  } catch {
    return undefined;
  }
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const log: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    const url = new URL(req.url ?? '/', 'http://proxy');
    void readAll(req).then((body) => {
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          void readAll(answer).then((text) => {
            let ret: number | undefined;
            try {
              ret = (JSON.parse(text.toString('utf8')) as { ret?: number }).ret;
            } catch {
              ret = undefined;
            }
            log.push({ at, token: url.searchParams.get('token') ?? '', endpoint: url.pathname, code: codeOf(url.searchParams), status: answer.statusCode ?? 0, ret });
            const headers = { ...answer.headers };
            delete headers['transfer-encoding'];
            headers['content-length'] = String(text.length);
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(text);
          });
        },
      );
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The most arrivals inside any window of `windowMs` (t - windowMs, t]. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[start]! <= sorted[end]! - windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
