// Throughput of a token pool: the same backfill through the BUILT command line, once on one token
// and once on a pool of two, against the emulator on loopback (its clock running from the same
// frozen instant as the run's --clock). The plan is a custom one of 4 requests a second, so the
// run is bound by the plan, not by this machine's CPU (a professional token's 20/s is more than a
// shared two-core machine writes Parquet for): two tokens should take about half the time. The
// figures: the speed-up and each token's share of its plan's per-second rate while the run lasted
// over the run's own duration (its summary's; the wall-time speed-up includes process start-up).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../dist/cli/quotelake.js', import.meta.url));
const NOW = '2026-11-12T15:00:00Z';
const TOKENS = ['bench-pool-token-1', 'bench-pool-token-2', 'bench-pool-token-3'];
const CODES = 'BTCUSDT,ETHUSDT,EURUSD,GOLD';
// 4 series of 1m bars over 8 days (about 24 pages each) and 4 of 1h: ~100 requests.
const WINDOW = ['--codes', CODES, '--since', '2026-11-03T00:00:00Z', '--until', '2026-11-11T00:00:00Z'];
const PLAN = { name: 'bench-4rps', base: 'professional', perSecond: 4, perMinute: 240 };

function cli(args, env) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...clean(process.env), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`quotelake ${args[0]} exited ${code}: ${err.slice(-2000)}`));
      resolve({ seconds: (performance.now() - started) / 1000, summary: JSON.parse(out).runs[0] });
    });
  });
}

function clean(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('QUOTELAKE_')));
}

export async function run() {
  const { startEmulator } = await import('../dist/emulator/index.js');
  const { shiftedClock } = await import('../dist/core/clock.js');
  const emu = await startEmulator({
    port: 0,
    clock: shiftedClock(Date.parse(NOW)),
    customPlans: [PLAN],
    plans: TOKENS.map((token) => ({ token, plan: PLAN.name })),
    log: () => undefined,
  });
  const scratch = await mkdtemp(join(tmpdir(), 'ql-bench-pool-'));
  const plansFile = join(scratch, 'plans.json');
  await writeFile(plansFile, JSON.stringify({ plans: [PLAN] }));
  try {
    const common = ['run', 'kline-backfill', ...WINDOW, '--clock', NOW, '-q', '--json', '--plans-file', plansFile];
    // kline-backfill's 1m and 1h intervals: the 1h series are a page or two; concurrency 4 (its default) spreads the 1m walks.
    const one = await cli([...common, '--output', join(scratch, 'one')], { QUOTELAKE_BASE_URL: emu.url, QUOTELAKE_TOKEN: TOKENS[0], QUOTELAKE_PLAN: PLAN.name });
    const two = await cli([...common, '--output', join(scratch, 'two')], {
      QUOTELAKE_BASE_URL: emu.url,
      QUOTELAKE_TOKENS: TOKENS.slice(1).map((t) => `${t}:${PLAN.name}`).join(','),
    });
    // The pool's tokens are not the first run's: their windows start empty.
    if (process.env.BENCH_DEBUG) process.stderr.write(`${JSON.stringify({ one: [one.seconds, one.summary.requestsTotal], two: [two.seconds, two.summary.requestsTotal, two.summary.tokens] })}\n`);
    const perSecond = PLAN.perSecond;
    // The run's own duration (from its summary): without the process start-up, which a longer run amortises.
    const runSeconds = (r) => r.summary.durationMs / 1000;
    const rate = (r) => r.summary.requestsTotal / runSeconds(r);
    const shares = two.summary.tokens.map((t) => t.requests / runSeconds(two) / perSecond);
    return [
      { name: 'token pool: 1 token of 4 req/s, requests/s of the run', value: Number(rate(one).toFixed(2)), unit: 'req/s', target: null },
      { name: 'token pool: 2 tokens of 4 req/s, requests/s of the run', value: Number(rate(two).toFixed(2)), unit: 'req/s', target: null },
      { name: 'token pool: speed-up of 2 tokens over 1 (same backfill, run time)', value: Number((runSeconds(one) / runSeconds(two)).toFixed(3)), unit: 'x', target: 2 },
      { name: 'token pool: speed-up of 2 tokens over 1 (CLI wall time)', value: Number((one.seconds / two.seconds).toFixed(3)), unit: 'x', target: null },
      { name: 'token pool: least-used token, share of its plan per second', value: Number(Math.min(...shares).toFixed(3)), unit: 'ratio', target: null },
    ];
  } finally {
    await emu.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
