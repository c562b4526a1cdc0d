/**
 * A pass-through HTTP proxy on loopback in front of the emulator that records every request's
 * arrival (real time) and whether the service answered `ret` 429: what the service saw, measured
 * independently of the clients that sent it.
 */
import { createServer, request, type Server } from 'node:http';
import { once } from 'node:events';

export interface Arrival {
  readonly at: number;
  readonly path: string;
  readonly rateLimited: boolean;
}

export interface RecordingProxy {
  readonly url: string;
  readonly arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    const path = (req.url ?? '').split('?')[0]!;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          arrivals.push({ at, path, rateLimited: /"ret"\s*:\s*429/.test(body.subarray(0, 200).toString()) });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
