/**
 * On a token pool a poller is one stream, which runs on one token of it (the fastest with quota
 * left). The total its progress line shows from the start ("N/M requests") is the count
 * `quotelake plan` gives for the same pipeline: both model the rounds on that token's caps and
 * windows, not on the pool's combined rates and smallest caps. Plan and run share one frozen clock.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTokenPool, QuotaStore, type PoolToken } from '../../src/api/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { quotaStateDir } from '../../src/cli/lake-location.js';
import { loadJob } from '../../src/cli/pipeline-job.js';
import { planJob } from '../../src/cli/plan-report.js';
import { progressFigures, progressLine } from '../../src/cli/progress/progress-figures.js';
import { QuotaWatchingClient } from '../../src/cli/quota-watch.js';
import { registry } from '../../src/cli/registry.js';
import { chooseTarget, connect } from '../../src/cli/service-target.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { pipelineFile } from './helpers/plan-and-run.js';

const AT = '2026-11-20T12:00:00Z';
/** Eight crypto codes: two requests a round under Free's cap of 5 codes, one on Basic. */
const CODES = '[BTCUSDT, ETHUSDT, SOLUSDT, DOGEUSDT, SHIBUSDT, PEPEUSDT, WLDUSDT, TONUSDT]';
const FREE_AND_BASIC: readonly PoolToken[] = [{ token: 'demo-free', plan: 'free' }, { token: 'demo-basic', plan: 'basic' }];

/** The first progress line's total (the M of "N/M requests") and what the run then sent, on the CLI's own client wrapping. */
async function progressTotal(
  file: string,
  output: string,
  pool: readonly PoolToken[],
  before?: (clock: ManualClock, quotaDir: string) => Promise<void>,
): Promise<{ plan: number; planNotes: string; firstTotal: number; sent: number }> {
  const clock = new ManualClock(AT);
  const job = await loadJob(file, { output }, {});
  await before?.(clock, quotaStateDir(job.resolved.settings.outputDir, job.resolved.settings.stateDir, {}));
  const plan = await planJob(job, clock, { pool });
  const connection = await connect(chooseTarget(job.resolved, job.plans, pool), { clock, announce: () => undefined });
  const { settings } = job.resolved;
  const client = new QuotaWatchingClient(createTokenPool({ tokens: connection.pool!, baseUrl: connection.baseUrl, ...(connection.plans ? { plans: connection.plans } : {}), clock, stateDir: quotaStateDir(settings.outputDir, settings.stateDir, {}) }));
  const events = createRunEvents();
  const started = clock.now();
  const lines: string[] = [];
  // The progress line as it reads when the first request goes out.
  events.on('request', () => {
    if (lines.length === 0) lines.push(progressLine('pool', progressFigures(events, started, clock.now(), undefined)));
  });
  try {
    const result = await runPipeline(job.pipeline, { registry, outputDir: settings.outputDir, client, events, clock });
    expect(result.status).toBe('succeeded');
  } finally {
    await client.close();
    await connection.close();
  }
  const firstTotal = Number(lines[0]?.match(/\/(\d+) requests/)?.[1]);
  const sent = Object.values(events.snapshot().requests).reduce((a, b) => a + b, 0);
  return { plan: plan.plan.totalRequests, planNotes: plan.plan.notes.join('\n'), firstTotal, sent };
}

describe('a poller on a pool of free and basic (it runs on basic)', () => {
  it.each([
    ['trade-snapshot', []],
    ['depth-snapshot', []],
    ['kline-latest', ['  intervals: [1m]']],
  ] as const)('%s: the progress line\'s total from the start is the plan\'s and what the run sends', async (type, extra) => {
    const { file, output } = pipelineFile(['name: pool', 'source:', `  type: ${type}`, `  codes: ${CODES}`, ...extra, '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    const r = await progressTotal(file, output, FREE_AND_BASIC);
    expect(r.sent, r.planNotes).toBe(r.plan);
    expect(r.firstTotal, r.planNotes).toBe(r.plan);
  }, 60_000);
});

describe('a poller on a pool of two Free-paced tokens (it runs on one of them)', () => {
  // Free's 1 request per 10 s: a round of 3 requests pushes the third of 3 rounds past 25 s on one
  // token. The two tokens' combined 2 per 10 s would take all 3: the progress line counted that round.
  it.each(['trade-snapshot', 'depth-snapshot'])('%s: the round the token cannot take is left out of the progress line from the start', async (type) => {
    const { file, output } = pipelineFile(['name: pool', 'service:', '  plansFile: plans.yaml', 'source:', `  type: ${type}`, '  codes: [BTCUSDT, ETHUSDT, SHIBUSDT, DOGEUSDT, EURUSD, GBPUSD, AAPL.US, TSLA.US, 700.HK]', '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    writeFileSync(join(dirname(file), 'plans.yaml'), 'plans:\n  - name: free-twin\n    base: free\n');
    const r = await progressTotal(file, output, [{ token: 'demo-free', plan: 'free' }, { token: 'demo-free-twin', plan: 'free-twin' }]);
    expect(r.planNotes).toMatch(/1 of 3 configured rounds will not start/);
    expect(r.plan).toBe(6);
    expect(r.sent, r.planNotes).toBe(6);
    expect(r.firstTotal, r.planNotes).toBe(6);
  }, 60_000);
});

describe('a poller on a pool whose fastest token has used up its day', () => {
  // Plan and run pass over the used-up token: the stream's first call finds its day used up and
  // moves to the free token, whose cap of 5 codes and 1 request per 10 s the rounds then take.
  it('trade-snapshot: the progress line counts the rounds on the token with quota left', async () => {
    const { file, output } = pipelineFile(['name: pool', 'service:', '  plansFile: plans.yaml', 'source:', '  type: trade-snapshot', `  codes: ${CODES}`, '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    writeFileSync(join(dirname(file), 'plans.yaml'), 'plans:\n  - name: basic-once\n    base: basic\n    perDay: 1\n');
    const pool = [{ token: 'demo-free', plan: 'free' }, { token: 'demo-basic-once', plan: 'basic-once' }];
    const r = await progressTotal(file, output, pool, async (clock, stateDir) => {
      // Another run of the day took the basic token's one request.
      await new QuotaStore({ stateDir, token: 'demo-basic-once', limit: 1, clock }).take();
    });
    expect(r.planNotes).toMatch(/3 round\(s\) of 2 request\(s\) for 8 code/);
    expect(r.sent, r.planNotes).toBe(6);
    expect(r.firstTotal, r.planNotes).toBe(6);
  }, 60_000);
});
