// Sources: a 60-day 1m crypto backfill through the client against the in-process emulator on a
// manual clock (requests, real time, bars per second), the plan of a year-long backfill, and the
// coverage report over the backfilled bars.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createClient, manualSleep } from '../dist/api/index.js';
import { components } from '../dist/components.js';
import { ManualClock } from '../dist/core/clock.js';
import { coverageReport } from '../dist/coverage/index.js';
import { startEmulator } from '../dist/emulator/server.js';
import { planPipeline } from '../dist/plan/index.js';
import { createRunEvents } from '../dist/runtime/run-events.js';
import { klineHistory, klineHistoryConfigSchema } from '../dist/sources/index.js';

const START = '2026-03-02T15:00:00.000Z';
const DAYS = 60;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export async function run() {
  const clock = new ManualClock(START);
  const emu = await startEmulator({ clock, log: () => {} });
  const dir = await mkdtemp(join(tmpdir(), 'ql-bench-sources-'));
  const client = createClient({ baseUrl: emu.url, token: 'demo-professional', plan: 'professional', stateDir: join(dir, 'state'), clock, sleep: manualSleep(clock) });
  try {
    const config = klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: `${DAYS}d` });
    const source = klineHistory.create(config, { outputDir: dir, stateDir: join(dir, 'state'), stdout: new PassThrough(), client });
    const ctx = { runId: 'bench', signal: new AbortController().signal, logger: quiet, events: createRunEvents(), clock };
    const rows = [];
    let t = performance.now();
    for await (const batch of source.read(ctx, new Map())) {
      for (const r of batch.records) rows.push({ code: r.code, interval: r.interval, ts: Number(r.bar.timestamp) * 1000 });
    }
    const backfillMs = performance.now() - t;
    const requests = client.requestCounts()['/quote-b-api/kline'] ?? 0;

    t = performance.now();
    const plan = planPipeline(
      { name: 'b', source: { type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'], intervals: ['1m'], since: '365d' }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } },
      { plan: 'professional', now: Date.parse(START), registry: components },
    );
    const planMs = performance.now() - t;

    t = performance.now();
    const report = coverageReport(rows);
    const coverageMs = performance.now() - t;

    return [
      { name: `sources.kline_history.${DAYS}d_1m.requests`, value: requests, unit: 'requests', target: Math.ceil(rows.length / 500) },
      { name: `sources.kline_history.${DAYS}d_1m.wall`, value: round(backfillMs / 1000), unit: 's', target: null },
      { name: `sources.kline_history.${DAYS}d_1m.bars_per_s`, value: Math.round(rows.length / (backfillMs / 1000)), unit: 'bars/s', target: null },
      { name: 'sources.plan.year_1m_4_codes.requests', value: plan.totalRequests, unit: 'requests', target: null },
      { name: 'sources.plan.year_1m_4_codes.limit_bound_wall', value: round(plan.estimatedMs / 1000), unit: 's', target: null },
      { name: 'sources.plan.year_1m_4_codes.compute', value: round(planMs), unit: 'ms', target: null },
      { name: `sources.coverage.${DAYS}d_1m.compute`, value: round(coverageMs), unit: 'ms', target: null },
      { name: `sources.coverage.${DAYS}d_1m.unexplained`, value: report.totals.unexplained, unit: 'gaps', target: 0 },
    ];
  } finally {
    await client.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function round(x) {
  return Math.round(x * 100) / 100;
}
