// The emulator as a user starts it: `quotelake serve` from the built CLI, in its own process, so
// its CPU is never the client's. Its CPU is read from /proc/<pid>/stat while it is alive.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Start `quotelake serve --port 0 ...args`; resolves once it prints the URL it listens on. */
export function startEmulator(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('emulator did not become ready in 30 s'));
    }, 30_000);
    child.stderr.setEncoding('utf8');
    const onData = (chunk) => {
      buffer += chunk;
      const match = /quotelake emulator listening on (http:\/\/\S+)/.exec(buffer);
      if (!match) return;
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.stderr.resume(); // keep draining: a full pipe would block the emulator
      child.off('exit', onEarlyExit);
      resolve({
        url: match[1],
        cpuSeconds: () => processCpuSeconds(child.pid),
        stop: () => stopChild(child),
      });
    };
    const onEarlyExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited early with code ${code}: ${buffer.trim()}`));
    };
    child.stderr.on('data', onData);
    child.once('exit', onEarlyExit);
  });
}

/** utime + stime of a live process in seconds (Linux /proc; clock ticks of 1/100 s). */
export async function processCpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
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
