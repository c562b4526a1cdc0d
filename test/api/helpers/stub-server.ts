/** A tiny programmable HTTP server on 127.0.0.1 for the client's unit tests. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  url: URL;
  token: string | null;
  query: { trace: string; data: Record<string, unknown> } | null;
  body: string;
  raw: string;
}

export type StubHandler = (req: StubRequest, res: ServerResponse) => unknown;

export async function startStub(handler: StubHandler) {
  const requests: StubRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const q = url.searchParams.get('query');
      const stub: StubRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        token: url.searchParams.get('token'),
        query: q ? (JSON.parse(q) as StubRequest['query']) : null,
        body: Buffer.concat(chunks).toString('utf8'),
        raw: req.url ?? '',
      };
      requests.push(stub);
      void Promise.resolve(handler(stub, res)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, body: unknown, status = 200): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

export function ok(res: ServerResponse, trace: string, data: unknown): void {
  json(res, { ret: 200, msg: 'ok', trace, data });
}

export function fail(res: ServerResponse, trace: string, ret: number, msg: string): void {
  json(res, { ret, msg, trace, data: {} });
}

export const bar = (ts: number) => ({
  timestamp: String(ts),
  open_price: '1.10',
  close_price: '1.20',
  high_price: '1.30',
  low_price: '1.00',
  volume: '100',
  turnover: '120.00',
});
