// The built CLI's `quotelake serve` as a child process, so its CPU is measured apart from the load
// generator's (from /proc on Linux). Used by the emulator and client benches.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../dist/cli/quotelake.js', import.meta.url));

/** Starts `quotelake serve --port 0 ...args`; resolves with the child and its URL once it listens. */
export function startServe(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('emulator did not become ready in 30 s'));
    }, 30_000);
    const onExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited early with code ${code}`));
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      buffer += chunk;
      const match = /quotelake emulator listening on (http:\/\/\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        child.off('exit', onExit);
        buffer = '';
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', onExit);
  });
}

/** Stops a child started by startServe and waits for it to exit. */
export async function stopServe(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** utime + stime of a process in ms (Linux /proc; null elsewhere). */
export async function processCpuMs(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] = utime, fields[12] = stime, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Peak resident set size of a process in MB (Linux /proc VmHWM; null elsewhere). */
export async function processPeakRssMb(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return kb === null ? null : Number(kb[1]) / 1024;
  } catch {
    return null;
  }
}
