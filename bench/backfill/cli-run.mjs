// One `quotelake run` through the BUILT command line, as a user runs it, against a service URL.
// The client's CPU (user + sys of its own process, all threads) and peak RSS come from
// usage-hook.mjs, preloaded with --import; rows come from the run's own `--json` summary.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MAIN } from './emulator-process.mjs';

const HOOK = pathToFileURL(fileURLToPath(new URL('./usage-hook.mjs', import.meta.url))).href;

/**
 * Run `quotelake run <pipeline> --output <output> -q --json ...extra` with the service in
 * QUOTELAKE_BASE_URL / QUOTELAKE_TOKEN (never on the command line). `clock` adds --clock.
 */
export async function runCli({ pipeline, output, baseUrl, token, extra = [], clock, scratch }) {
  const usageFile = join(scratch, `usage-${process.pid}-${Date.now()}.json`);
  const args = ['--import', HOOK, MAIN, 'run', pipeline, '--output', output, '-q', '--json', ...(clock ? ['--clock', clock] : []), ...extra];
  const env = { ...process.env, QUOTELAKE_BASE_URL: baseUrl, QUOTELAKE_TOKEN: token, QUOTELAKE_BENCH_USAGE_FILE: usageFile };
  delete env.QUOTELAKE_PLAN;
  delete env.QUOTELAKE_PLANS_FILE;
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  let usage = null;
  try {
    usage = JSON.parse(await readFile(usageFile, 'utf8'));
    await rm(usageFile, { force: true });
  } catch {
    // No usage file: the process died before its exit handler (reported as such by the caller).
  }
  let summary = null;
  try {
    summary = JSON.parse(stdout);
  } catch {
    // Not JSON: the caller reports the exit code and stderr.
  }
  return {
    exitCode: code,
    stderr,
    summary,
    wallSeconds,
    cpuSeconds: usage ? (usage.userUs + usage.systemUs) / 1e6 : NaN,
    /** The main thread's share of cpuSeconds (NaN where /proc/thread-self is not there). */
    mainThreadCpuSeconds: typeof usage?.mainThreadUs === 'number' ? usage.mainThreadUs / 1e6 : NaN,
    peakRssMb: usage ? usage.maxRssKb / 1024 : NaN,
  };
}

/** Rows the run committed, from its --json summary (every dataset). */
export function writtenRows(result) {
  const runs = result.summary?.runs ?? [];
  let rows = 0;
  for (const r of runs) for (const d of Object.values(r.rows ?? {})) rows += d.written;
  return rows;
}

/** The usage error of a CLI that does not know an option yet (exit 2, "Unknown arguments: <name>"). */
export function unknownOption(result, name) {
  return result.exitCode === 2 && new RegExp(`Unknown argument[^\\n]*${name}`).test(result.stderr);
}
