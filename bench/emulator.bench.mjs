// Emulator throughput: /kline 500 bars of 1m and a 50-code /depth-tick over keep-alive.
// The emulator runs in-process with limits off (limits would throttle the measurement).
import { Pool } from 'undici';
import { startEmulator } from '../dist/emulator/server.js';
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
      const text = await res.body.text();
      if (res.statusCode !== 200 || !text.startsWith('{"ret":200')) errors++;
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN;
  return { rps: latencies.length / (elapsed / 1000), p99, errors };
}

const q = (doc) => encodeURIComponent(JSON.stringify(doc));

export async function run() {
  const emu = await startEmulator({ seed: 1, limits: false });
  const pool = new Pool(emu.url, { connections: CONNECTIONS, pipelining: 1 });
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
      { name: 'emulator /depth-tick 50 codes requests/s', value: Math.round(depth.rps), unit: 'req/s', target: null },
      { name: 'emulator /depth-tick 50 codes p99 latency', value: Number(depth.p99.toFixed(2)), unit: 'ms', target: null },
    ];
  } finally {
    await pool.close();
    await emu.close();
  }
}
