/**
 * `quotelake plan` of a polling source says what the run then does, on every built-in plan: the
 * same requests per endpoint, the same rounds (a round the plan's rate limit pushes past
 * durationSeconds is cut by both), the same partitions. Run and plan share one frozen clock.
 */
import { describe, expect, it } from 'vitest';
import { PLAN_NAMES } from '../../src/api/index.js';
import { planAndRun, pipelineFile, runPartitions } from './helpers/plan-and-run.js';

const AT = '2026-11-20T12:00:00Z';
/** An All-* plan covers its market only. */
const MARKET_CODES: Record<string, string> = { 'all-hk': '[700.HK, 857.HK]', 'all-cn': '[600000.SH, 000001.SZ]', 'all-us': '[AAPL.US, TSLA.US]' };
const CODES = '[BTCUSDT, ETHUSDT, SHIBUSDT, DOGEUSDT, EURUSD, GBPUSD, AAPL.US, TSLA.US, 700.HK]';

/** The note of rounds cut, the run's or the plan's. */
const roundsNote = (notes: readonly string[]) => notes.find((n) => / of \d+ (configured )?rounds (did|will) not start/.test(n));

describe.each(PLAN_NAMES)('plan %s', (plan) => {
  const codes = MARKET_CODES[plan] ?? CODES;

  it.each(['trade-snapshot', 'depth-snapshot'])('%s every 10 s for 25 s: requests, rounds and cut as the run', async (type) => {
    const { file, output } = pipelineFile([`name: poll`, 'source:', `  type: ${type}`, `  codes: ${codes}`, '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    const { plan: p, run } = await planAndRun(file, { plan, output }, AT);
    expect(run.exitCode).toBe(0);
    expect(p.plan.requests).toEqual(run.requests);
    expect(p.plan.totalRequests).toBe(run.requestsTotal);
    // No latency on a frozen clock: the time the limits impose is the run's.
    expect(p.plan.estimatedMs).toBe(run.durationMs);
    const dataset = type === 'trade-snapshot' ? 'trade' : 'depth';
    expect(p.plan.partitions).toEqual(runPartitions(run, dataset));
    expect(p.plan.streams[0]!.records).toBe(run.rows[dataset]!.received);
    // Both name the cut rounds, or neither does.
    const planned = roundsNote(p.plan.notes)?.match(/(\d+) of (\d+)/)?.slice(1);
    const ran = roundsNote(run.notes)?.match(/(\d+) of (\d+)/)?.slice(1);
    expect(planned).toEqual(ran);
    if (plan === 'free') expect(ran).toEqual(['1', '3']);
  }, 60_000);

  it('kline-latest every 10 s for 25 s: requests, rounds and cut as the run', async () => {
    const latestCodes = plan.startsWith('all-') ? codes : '[BTCUSDT, ETHUSDT, SHIBUSDT, EURUSD, GBPUSD, GOLD, AAPL.US, TSLA.US]';
    const { file, output } = pipelineFile(['name: latest', 'source:', '  type: kline-latest', `  codes: ${latestCodes}`, '  intervals: [1m, 1d]', '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    const { plan: p, run } = await planAndRun(file, { plan, output }, AT);
    expect(run.exitCode).toBe(0);
    expect(p.plan.requests).toEqual(run.requests);
    expect(p.plan.estimatedMs).toBe(run.durationMs);
    const planned = roundsNote(p.plan.notes)?.match(/(\d+) of (\d+)/)?.slice(1);
    const ran = roundsNote(run.notes)?.match(/(\d+) of (\d+)/)?.slice(1);
    expect(planned).toEqual(ran);
    expect(p.plan.partitions).toEqual(runPartitions(run, 'kline'));
  }, 60_000);
});

describe('partitions at instants where the clock\'s date is not the data\'s', () => {
  // Monday before any open (stocks answer with Friday's trade and bars), a new year's first
  // seconds (last year's week and month bars), a Sunday (forex closed since Friday).
  it.each(['2026-11-23T03:00:00Z', '2027-01-01T00:00:05Z', '2026-11-22T12:00:00Z'])('at %s: the plan names the folders the run writes', async (at) => {
    const codes = '[BTCUSDT, EURUSD, GOLD, AAPL.US, 700.HK, 600000.SH]';
    const latest = pipelineFile(['name: latest', 'source:', '  type: kline-latest', `  codes: ${codes}`, '  intervals: [1m, 1h, 1d, 1w, 1mo]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    const k = await planAndRun(latest.file, { output: latest.output }, at);
    expect(k.plan.plan.partitions).toEqual(runPartitions(k.run, 'kline'));
    const trades = pipelineFile(['name: trades', 'source:', '  type: trade-snapshot', `  codes: ${codes}`, 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
    const t = await planAndRun(trades.file, { output: trades.output }, at);
    expect(t.plan.plan.partitions).toEqual(runPartitions(t.run, 'trade'));
  }, 60_000);
});

describe('a token pool', () => {
  // A poller is one stream, which the pool keeps on one token (the fastest of an idle pool), with
  // that token's caps and windows: the pool's combined rate and smallest caps would plan another run.
  it.each([
    ['free + basic', [{ token: 'demo-free', plan: 'free' }, { token: 'demo-basic', plan: 'basic' }]],
    ['basic + free', [{ token: 'demo-basic', plan: 'basic' }, { token: 'demo-free', plan: 'free' }]],
    ['basic + premium', [{ token: 'demo-basic', plan: 'basic' }, { token: 'demo-premium', plan: 'premium' }]],
  ])('%s: a poller\'s requests and rounds as the run', async (_name, pool) => {
    for (const type of ['trade-snapshot', 'depth-snapshot', 'kline-latest']) {
      const { file, output } = pipelineFile(['name: pool', 'source:', `  type: ${type}`, `  codes: ${CODES}`, ...(type === 'kline-latest' ? ['  intervals: [1m]'] : []), '  everySeconds: 10', '  durationSeconds: 25', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet']);
      const { plan: p, run } = await planAndRun(file, { output }, AT, pool);
      expect(run.exitCode, type).toBe(0);
      expect(p.plan.requests, type).toEqual(run.requests);
      expect(roundsNote(p.plan.notes)?.match(/(\d+) of (\d+)/)?.slice(1), type).toEqual(roundsNote(run.notes)?.match(/(\d+) of (\d+)/)?.slice(1));
      // The quota is still the pool's: a stream moves on when its token's day is used up.
      expect(p.plan.quota.perDay).toBe(pool.reduce((a, t) => a + ({ free: 1000, basic: 86_400, premium: 864_000 } as Record<string, number>)[t.plan]!, 0));
    }
  }, 60_000);
});
