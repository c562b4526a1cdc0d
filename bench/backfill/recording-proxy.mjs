// A counting and recording HTTP proxy between the client and the emulator, in the bench's own
// process (so its CPU is never the client's). It forwards every request unchanged and notes when
// each arrived and when its answer ended, with the answer's `ret` (the service says 429 inside a
// 200 answer). With a save folder set, every successful /kline page body is written there as
// the client received it: the input of the DuckDB conversion, so both sides see the same pages.
import { Agent, createServer, request as httpRequest } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const KLINE = /^\/[^?]*\/kline(\?|$)/;

export async function startProxy(targetUrl) {
  const target = new URL(targetUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let saveDir = null;
  let saved = 0;
  let log = [];
  const writes = new Set();

  const server = createServer((req, res) => {
    const arrivedMs = performance.now();
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        const chunks = [];
        up.on('data', (chunk) => {
          chunks.push(chunk);
          res.write(chunk);
        });
        up.on('end', () => {
          res.end();
          const body = Buffer.concat(chunks);
          // The envelope starts {"ret":NNN: read the code without parsing the page.
          const ret = Number(/"ret":\s*(\d+)/.exec(body.subarray(0, 64).toString('latin1'))?.[1] ?? NaN);
          const kline = KLINE.test(req.url ?? '');
          log.push({ arrivedMs, endedMs: performance.now(), status: up.statusCode, ret, kline });
          if (saveDir !== null && kline && up.statusCode === 200 && ret === 200) {
            const file = join(saveDir, `${String(++saved).padStart(7, '0')}.json`);
            const w = writeFile(file, body).finally(() => writes.delete(w));
            writes.add(w);
          }
        });
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"proxy: upstream failed"}');
    });
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    url: `http://127.0.0.1:${port}`,
    /** Start a phase: clear the log, and save /kline pages to `dir` (null: save nothing). */
    async phase(dir) {
      await Promise.all(writes);
      log = [];
      saved = 0;
      saveDir = dir;
      if (dir !== null) await mkdir(dir, { recursive: true });
    },
    /** The phase's requests so far, and the pages saved (after their writes finished). */
    async finish() {
      await Promise.all(writes);
      return { log, saved };
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
