// Emulator throughput: /kline 500 bars of 1m and a 50-code /depth-tick over keep-alive, the same
// URL again and again (served from the emulator's caches). The emulator runs in this process, on a
// worker thread, with limits off (limits would throttle the measurement); the load generator (undici
// Pool) runs on the main thread.
// Then a backfill's pages, every one new (uncached): the built CLI's `serve --no-limits` in a child
// process, so its CPU per page is measured apart from the load generator's.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { listProducts } from '../dist/catalog/index.js';
import { driveBackfill } from './backfill-pages.mjs';
import { processCpuMs, processPeakRssMb, startServe, stopServe } from './serve-child.mjs';

const DURATION_MS = 5000;
const CONNECTIONS = 16;

async function measure(pool, path, durationMs) {
  const latencies = [];
  let errors = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await pool.request({ path, method: 'GET' });
      let first = true;
      let ok = res.statusCode === 200;
      for await (const chunk of res.body) {
        if (first) ok &&= chunk.toString('latin1', 0, 10) === '{"ret":200';
        first = false;
      }
      if (!ok) errors++;
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const cpu = process.cpuUsage(cpu0);
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN;
  // CPU of the whole process (server thread + load generator) per request: a figure that does not
  // depend on how busy the machine is, unlike requests/s.
  const cpuMsPerRequest = (cpu.user + cpu.system) / 1000 / latencies.length;
  return { rps: latencies.length / (elapsed / 1000), p99, errors, cpuMsPerRequest };
}

const q = (doc) => encodeURIComponent(JSON.stringify(doc));

const BACKFILL_CLOCK = '2026-11-20T00:00:00Z';
const BACKFILL_MS = 6000;

/**
 * Uncached 500-bar 1m pages: ten codes (crypto, forex, metals) each walking back from a frozen
 * clock, a few connections in flight. A short warm-up walks another range first (JIT, catalog).
 * CPU per page is the server's utime + stime over the measured pages: a figure that does not depend
 * on how busy the machine is, unlike pages/s (which also needs a free core for this load generator).
 */
async function uncachedPages() {
  const { child, url } = await startServe(['--clock', BACKFILL_CLOCK, '--no-limits']);
  try {
    const clockSec = Date.parse(BACKFILL_CLOCK) / 1000;
    await driveBackfill({ url, fromSec: clockSec, floorSec: clockSec - 3 * 86_400, durationMs: 1000 });
    const cpu0 = await processCpuMs(child.pid);
    const from = clockSec - 4 * 86_400; // below the warm-up's range: no page, no bar is cached
    const r = await driveBackfill({ url, fromSec: from, floorSec: from - 365 * 86_400, durationMs: BACKFILL_MS });
    const cpu1 = await processCpuMs(child.pid);
    const peakRssMb = await processPeakRssMb(child.pid);
    return {
      peakRssMb,
      pagesPerSec: r.pages / (r.elapsedMs / 1000),
      cpuMsPerPage: cpu0 === null || cpu1 === null || r.pages === 0 ? null : (cpu1 - cpu0) / r.pages,
      errors: r.errors,
    };
  } finally {
    await stopServe(child);
  }
}

export async function run() {
  const worker = new Worker(new URL('./emulator-worker.mjs', import.meta.url));
  const [{ url }] = await once(worker, 'message');
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  try {
    const klinePath = `/quote-b-api/kline?token=demo-professional&query=${q({
      trace: 'bench',
      data: { code: 'BTCUSDT', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 500, adjust_type: 0 },
    })}`;
    const stock = listProducts().filter((p) => p.family === 'stock').map((p) => p.code);
    const codes = Array.from({ length: 50 }, (_, i) => stock[i % stock.length]);
    const depthPath = `/quote-stock-b-api/depth-tick?token=demo-professional&query=${q({
      trace: 'bench',
      data: { symbol_list: codes.map((code) => ({ code })) },
    })}`;
    await measure(pool, klinePath, 500); // warm-up
    const kline = await measure(pool, klinePath, DURATION_MS);
    const depth = await measure(pool, depthPath, DURATION_MS);
    const uncached = await uncachedPages();
    return [
      { name: 'emulator /kline 500x1m requests/s', value: Math.round(kline.rps), unit: 'req/s', target: 2000 },
      { name: 'emulator /kline 500x1m p99 latency', value: Number(kline.p99.toFixed(2)), unit: 'ms', target: null },
      { name: 'emulator /kline errors', value: kline.errors, unit: 'count', target: 0 },
      {
        name: 'emulator /kline 500x1m CPU per request (server + client)',
        value: Number(kline.cpuMsPerRequest.toFixed(3)),
        unit: 'ms',
        target: null,
      },
      { name: 'emulator /depth-tick 50 codes requests/s', value: Math.round(depth.rps), unit: 'req/s', target: null },
      { name: 'emulator /depth-tick 50 codes p99 latency', value: Number(depth.p99.toFixed(2)), unit: 'ms', target: null },
      {
        name: 'emulator /depth-tick 50 codes CPU per request (server + client)',
        value: Number(depth.cpuMsPerRequest.toFixed(3)),
        unit: 'ms',
        target: null,
      },
      { name: 'emulator uncached 500-bar pages/s', value: Math.round(uncached.pagesPerSec), unit: 'pages/s', target: 1000 },
      // 1,000 pages/s on one core leaves 1 ms of the server's CPU per page.
      ...(uncached.cpuMsPerPage === null
        ? []
        : [{ name: 'emulator CPU ms per uncached page', value: Number(uncached.cpuMsPerPage.toFixed(3)), unit: 'ms', target: 1 }]),
      { name: 'emulator uncached page errors', value: uncached.errors, unit: 'count', target: 0 },
      ...(uncached.peakRssMb === null ? [] : [{ name: 'emulator peak RSS after uncached pages', value: Math.round(uncached.peakRssMb), unit: 'MB', target: null }]),
    ];
  } finally {
    await pool.close();
    worker.postMessage('close');
    await once(worker, 'exit');
  }
}
