/**
 * An HTTP proxy on loopback in front of the emulator that hands each JSON answer to `rewrite`
 * before passing it on: a service that gets one value wrong, everything else as the emulator sent it.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';

export interface RewritingProxy {
  readonly url: string;
  close(): Promise<void>;
}

/** `rewrite` gets the request's path and the parsed answer, and may change it in place. */
export async function startRewritingProxy(target: string, rewrite: (path: string, answer: Record<string, unknown>) => void): Promise<RewritingProxy> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${target}${req.url ?? ''}`, { method: req.method, ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}) });
        let text = await answer.text();
        if ((answer.headers.get('content-type') ?? '').includes('json')) {
          const doc = JSON.parse(text) as Record<string, unknown>;
          rewrite((req.url ?? '').split('?')[0]!, doc);
          text = JSON.stringify(doc);
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })().catch(() => {
        res.writeHead(502);
        res.end();
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
