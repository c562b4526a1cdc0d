// The emulator as a user starts it: `quotelake serve` from the built CLI, in its own process, so
// its CPU is never the client's. Its CPU is read from /proc/<pid>/stat while it is alive.
import { fileURLToPath } from 'node:url';
import { processCpuMs, startServe, stopServe } from '../serve-child.mjs';

export const MAIN = fileURLToPath(new URL('../../dist/cli/quotelake.js', import.meta.url));

/** Start `quotelake serve --port 0 ...args`; resolves once it listens, with its URL, CPU and stop. */
export async function startEmulator(args) {
  const { child, url } = await startServe(args);
  // Keep draining stderr: a full pipe would block the emulator.
  child.stderr.resume();
  return { url, cpuSeconds: async () => (await processCpuMs(child.pid)) / 1000, stop: () => stopServe(child) };
}

/** Move a frozen emulator's clock (POST /_emulator/clock, enabled by `serve --clock`). */
export async function setEmulatorClock(url, iso) {
  const response = await fetch(`${url}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ set: iso }) });
  if (!response.ok) throw new Error(`emulator clock: HTTP ${response.status} ${await response.text()}`);
}

/**
 * Warm a fresh emulator's code paths (JIT, the synthetic market's generators) for these codes
 * with one 500-bar page each, asked on ANOTHER token (its own limit windows and quota) and ending
 * before `endSec`, outside the measured span: a real service is warm, and a measured run should
 * not count the emulator's first-request costs against the client.
 */
export async function warmEmulator(url, token, codes, endSec) {
  for (const [i, code] of codes.entries()) {
    const query = JSON.stringify({ trace: `warm-${i}`, data: { code, kline_type: 1, kline_timestamp_end: endSec, query_kline_num: 500, adjust_type: 0 } });
    const response = await fetch(`${url}/quote-b-api/kline?token=${encodeURIComponent(token)}&query=${encodeURIComponent(query)}`);
    await response.arrayBuffer();
  }
}
