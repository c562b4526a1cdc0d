/**
 * An HTTP gate in front of the test S3 server: each request is first shown to `intercept`, which
 * may answer it itself (return true); the others are forwarded as they are. Tests use it to see
 * what the client sends (a signature's region) or to play a store that refuses (a 403 on PUT).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { useS3Server } from './s3-server.js';

export interface S3Gate {
  /** `http://127.0.0.1:<port>`: the endpoint to give the client. */
  readonly endpoint: string;
  close(): void;
}

export async function startS3Gate(upstreamEndpoint: string, intercept: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<S3Gate> {
  const upstream = new URL(upstreamEndpoint);
  const gate: Server = createServer((req, res) => {
    if (intercept(req, res)) return;
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  gate.listen(0, '127.0.0.1');
  await once(gate, 'listening');
  return { endpoint: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`, close: () => gate.close() };
}

/** A test S3 server behind a gate that counts every request sent to it (for "touches nothing" checks). */
export function useCountingS3Gate(): { readonly server: ReturnType<typeof useS3Server>; gate(): S3Gate; requests(): number; resetCount(): void } {
  const server = useS3Server();
  let gate: S3Gate | undefined;
  let requests = 0;
  beforeAll(async () => {
    gate = await startS3Gate(server().endpoint, () => {
      requests += 1;
      return false;
    });
  });
  afterAll(() => gate?.close());
  return { server, gate: () => gate!, requests: () => requests, resetCount: () => (requests = 0) };
}
