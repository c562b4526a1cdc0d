// Emulator throughput: /kline 500 bars of 1m and a 50-code /depth-tick over keep-alive.
// The emulator runs in this process, on a worker thread, with limits off (limits would throttle the
// measurement); the load generator (undici Pool) runs on the main thread.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { listProducts } from '../dist/catalog/index.js';

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
    ];
  } finally {
    await pool.close();
    worker.postMessage('close');
    await once(worker, 'exit');
  }
}
