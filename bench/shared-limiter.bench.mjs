/**
 * One professional token shared by N processes through the Redis coordinator (`--coordinator`), with
 * the REAL clock: the plan's use measured at the service's door (a pass-through proxy before the
 * emulator, recording each request's arrival and any 429), for 2 and 3 processes.
 *
 * Rate share = the least time the plan lets the arrivals take / the time they took, first to last
 * (bench/plan-utilisation.mjs). Redis is Debian's
 * redis-server on a free loopback port; it is marked as long-running (no restart guard, see
 * src/api/redis/redis-scripts.ts), as a production Redis would be.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokenHash16 } from '../dist/api/index.js';
import { tokenKeys } from '../dist/api/redis/index.js';
import { startEmulator } from '../dist/emulator/index.js';
import { planUtilisation } from './plan-utilisation.mjs';
import { startRedis } from './redis-server.mjs';

const { Redis } = createRequire(import.meta.url)('ioredis');
const CHILD = fileURLToPath(new URL('./shared-limiter-child.mjs', import.meta.url));
const PER_PROCESS = Number(process.env.QUOTELAKE_BENCH_SHARED_REQUESTS ?? 200);

async function startProxy(target) {
  const upstream = new URL(target);
  const arrivals = [];
  const server = createServer((req, res) => {
    const at = Date.now();
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        arrivals.push({ at, limited: /"ret"\s*:\s*429/.test(body.subarray(0, 200).toString()) });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, arrivals, close: () => server.close() };
}

async function share(processes, redisUrl, proxy, stateDir) {
  proxy.arrivals.length = 0;
  await Promise.all(
    Array.from({ length: processes }, () => {
      const child = spawn(process.execPath, [CHILD, proxy.url, redisUrl, String(PER_PROCESS), stateDir], { stdio: 'inherit' });
      return once(child, 'exit');
    }),
  );
  const times = proxy.arrivals.map((a) => a.at).sort((a, b) => a - b);
  return { share: planUtilisation(times, 20), rejected: proxy.arrivals.filter((a) => a.limited).length };
}

export async function run() {
  const dir = await mkdtemp(join(tmpdir(), 'ql-bench-shared-'));
  const redis = await startRedis(dir);
  // The emulator runs in this process; its clock is the real one. (Day counts start at 0 each bench.)
  const emulator = await startEmulator({ log: () => {} });
  const proxy = await startProxy(emulator.url);
  const figures = [];
  // One Redis for every case, never flushed between them: the emulator still counts the last
  // second of the previous case, and so must the coordinator, as a production Redis would.
  const client = new Redis(redis.url);
  await client.set(tokenKeys(tokenHash16('demo-professional')).epoch, '0');
  client.disconnect();
  try {
    for (const processes of [2, 3]) {
      const { share: s, rejected } = await share(processes, redis.url, proxy, join(dir, 'state'));
      figures.push({ name: `shared limiter: ${processes} processes, one professional token, rate share`, value: Number(s.toFixed(4)), unit: 'x plan', target: 0.99 });
      figures.push({ name: `shared limiter: ${processes} processes, 429 rejections at the service`, value: rejected, unit: 'requests', target: 0 });
    }
  } finally {
    proxy.close();
    await emulator.close();
    redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
