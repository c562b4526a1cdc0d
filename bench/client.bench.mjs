/**
 * Service client throughput against the emulator with the REAL clock: achieved request rate as a
 * share of the plan's limit, 429 rejections seen, and CPU time per request (client process; the
 * emulator runs as a child `quotelake serve` so its CPU is measured apart, from /proc on Linux).
 *
 * Basic, premium and professional run at the same time on their own demo tokens (separate limits
 * on the emulator), for QUOTELAKE_BENCH_SECONDS seconds (default 20).
 *
 * Rate share = steady-state rate / plan rate, where steady-state rate = (admissions after the first
 * window) / (time from first to last admission); a perfect limiter scores 1.0, the safety margin
 * costs about marginMs/windowMs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, PLANS } from '../dist/api/index.js';
import { processCpuMs, startServe } from './serve-child.mjs';

const PLANS_RUN = ['basic', 'premium', 'professional'];

async function runPlan(plan, url, stateDir, seconds, counter) {
  const limits = PLANS[plan];
  const infos = [];
  const client = createClient({
    baseUrl: url,
    token: `demo-${plan}`,
    plan,
    stateDir,
    onRequest: (info) => {
      infos.push(info);
      counter.requests++;
    },
  });
  const deadline = Date.now() + seconds * 1000;
  const workers = Math.max(2, limits.perSecond.limit * 2);
  let errors = 0;
  const codes = ['BTCUSDT', 'EURUSD', 'AAPL.US', '700.HK'];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let i = w;
      while (Date.now() < deadline) {
        const code = codes[i++ % codes.length];
        try {
          if (i % 2 === 0) await client.kline({ code, klineType: 1, count: 50 });
          else await client.tradeTicks([code]);
        } catch {
          errors++;
        }
      }
    }),
  );
  await client.close();
  const sent = infos.filter((i) => i.outcome !== 'aborted').map((i) => i.sentAt).sort((a, b) => a - b);
  const perMs = limits.perSecond.limit / limits.perSecond.windowMs;
  const n = sent.length;
  const span = n > 1 ? sent[n - 1] - sent[0] : 0;
  const steady = span > 0 ? (n - limits.perSecond.limit) / span : 0;
  const trips = infos.map((i) => i.durationMs).sort((a, b) => a - b);
  return {
    plan,
    medianRoundTripMs: trips[Math.floor(trips.length / 2)] ?? 0,
    requests: n,
    ok: infos.filter((i) => i.outcome === 'ok').length,
    rejections: infos.filter((i) => i.outcome === 'rate-limited').length,
    errors,
    share: steady / perMs,
  };
}

export async function run() {
  const seconds = Number(process.env.QUOTELAKE_BENCH_SECONDS ?? 20);
  const stateDir = await mkdtemp(join(tmpdir(), 'ql-bench-client-'));
  const { child, url } = await startServe(['--seed', '1']);
  try {
    // CPU is measured after a warm-up (module loading, JIT), over the steady part of the run.
    const counter = { requests: 0 };
    let start;
    const warmUp = setTimeout(async () => {
      const emu = await processCpuMs(child.pid);
      start = { cpu: process.cpuUsage(), emu, requests: counter.requests };
    }, Math.min(3000, seconds * 200));
    const results = await Promise.all(PLANS_RUN.map((plan) => runPlan(plan, url, stateDir, seconds, counter)));
    clearTimeout(warmUp);
    const cpu = process.cpuUsage(start?.cpu);
    const emuCpu1 = await processCpuMs(child.pid);
    const emuCpu0 = start?.emu ?? null;
    const total = counter.requests - (start?.requests ?? 0);
    const out = [];
    for (const r of results) {
      out.push({ name: `client ${r.plan}: achieved rate / plan limit`, value: round(r.share, 4), unit: 'ratio', target: 0.97 });
      out.push({ name: `client ${r.plan}: 429 rejections`, value: r.rejections, unit: 'count', target: 0 });
      out.push({ name: `client ${r.plan}: requests sent (run of ${seconds} s)`, value: r.requests, unit: 'requests', target: null });
      // A window reopens one round trip after the server saw the request: rate share ~ W / (W + trip).
      out.push({ name: `client ${r.plan}: median round trip`, value: r.medianRoundTripMs, unit: 'ms', target: null });
    }
    out.push({
      name: 'client CPU time per request',
      value: round((cpu.user + cpu.system) / Math.max(1, total), 1),
      unit: 'µs/request',
      target: null,
    });
    if (emuCpu0 !== null && emuCpu1 !== null) {
      out.push({
        name: 'emulator CPU time per request (child process)',
        value: round(((emuCpu1 - emuCpu0) * 1000) / Math.max(1, total), 1),
        unit: 'µs/request',
        target: null,
      });
    }
    return out;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      if (child.exitCode !== null) resolve();
      else child.once('exit', resolve);
    });
    await rm(stateDir, { recursive: true, force: true });
  }
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
