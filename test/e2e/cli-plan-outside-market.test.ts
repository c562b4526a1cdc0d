/**
 * `plan` (and `run --dry-run`) on an All-* plan with codes outside its market says up front what
 * the run then meets: `ret 604 code unauthorized for …` with the run's hint, on stderr (event
 * `plan-outside-market`), among the plan's notes and as `plan.outsideMarket` in `--json`. It used
 * to plan such a run in silence (exit 0), and the run failed at its first request with exit 1.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T10:00:00Z';
const HINT = 'plan all-us covers only US stocks (.US): drop the codes outside it from codes, or fetch them with a token on a plan that covers them';
const COMMON = ['--plan', 'all-us', '--clock', NOW];

interface PlanDoc {
  exitCode: number;
  plans: { plan: { notes: string[]; outsideMarket?: { codes: string[]; hint: string } } }[];
}

describe('plan with codes outside an All-* plan\'s market', () => {
  it('kline-history: plan warns with the run\'s words, and the run fails on them', async () => {
    const output = tempDir('ql-plan-market-');
    const args = ['kline-backfill', '--codes', 'AAPL.US,700.HK,BTCUSDT', '--since', '1d', '--output', output, ...COMMON];
    const [text, json, dry] = await Promise.all([runCli(['plan', ...args]), runCli(['plan', ...args, '--json']), runCli(['run', ...args, '--dry-run'])]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(`quotelake: kline-backfill: a run stops at ret 604 code unauthorized for 700.HK,BTCUSDT (exit 1)\n  hint: ${HINT}`);
    expect(text.stdout).toContain(`    - a run stops at ret 604 code unauthorized for 700.HK,BTCUSDT (exit 1); ${HINT}`);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('ret 604 code unauthorized for 700.HK,BTCUSDT (exit 1)');
    const doc = JSON.parse(json.stdout) as PlanDoc;
    expect(doc.plans[0]!.plan.outsideMarket).toEqual({ codes: ['700.HK', 'BTCUSDT'], hint: HINT });

    // What the plan warned of: the run (the built-in emulator, its all-us demo token) stops at them.
    const run = await runCli(['run', ...args, '--quiet']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/ret 604 code unauthorized for (700\.HK|BTCUSDT)/);
    expect(run.stderr).toContain(`hint: ${HINT}`);
  }, 90_000);

  it('a snapshot pipeline names every code outside the market, of both families', async () => {
    const r = await runCli(['plan', 'trades-ndjson', '--output', tempDir('ql-plan-market-snap-'), ...COMMON, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = (JSON.parse(r.stdout) as PlanDoc).plans[0]!.plan;
    expect(plan.outsideMarket?.codes).toEqual(['BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'EURUSD', 'GOLD', '700.HK', '600000.SH']);
    expect(r.stderr).toContain('a run stops at ret 604 code unauthorized for BTCUSDT,ETHUSDT,SHIBUSDT,EURUSD,GOLD,700.HK,600000.SH (exit 1)');
  }, 60_000);

  it('a token pool: codes every token\'s plan refuses are warned of, with the pool\'s hint, and the run stops at them', async () => {
    const pool = { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-all-hk:all-hk' };
    const args = ['kline-backfill', '--codes', 'AAPL.US,700.HK,BTCUSDT,EURUSD', '--since', '1d', '--output', tempDir('ql-plan-market-pool-'), '--clock', NOW];
    const poolHint = 'no token of the pool is on a plan that covers them (all-us covers only US stocks (.US); all-hk covers only HK stocks (.HK)): drop those codes from codes, or add to the pool a token on a plan that covers them';
    const [text, json, covered] = await Promise.all([
      runCli(['plan', ...args], { env: pool }),
      runCli(['plan', ...args, '--json'], { env: pool }),
      // A token on a plan of every market covers them all: nothing to warn of.
      runCli(['plan', ...args, '--json'], { env: { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-professional:professional' } }),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(`quotelake: kline-backfill: a run stops at ret 604 code unauthorized for BTCUSDT,EURUSD (exit 1)\n  hint: ${poolHint}`);
    expect((JSON.parse(json.stdout) as PlanDoc).plans[0]!.plan.outsideMarket).toEqual({ codes: ['BTCUSDT', 'EURUSD'], hint: poolHint });
    expect(covered.code, covered.stderr).toBe(0);
    expect(covered.stderr).not.toContain('604');
    expect((JSON.parse(covered.stdout) as PlanDoc).plans[0]!.plan.outsideMarket).toBeUndefined();

    // What the plan warned of: the run (the built-in emulator, its demo tokens) stops at such a code.
    const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', tempDir('ql-plan-market-pool-run-'), '--clock', NOW, '--quiet'], { env: pool });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('ret 604 code unauthorized for BTCUSDT');
  }, 90_000);

  it('codes all inside the market, or a plan that covers every market: no warning', async () => {
    const [inside, professional] = await Promise.all([
      runCli(['plan', 'kline-backfill', '--codes', 'AAPL.US,TSLA.US', '--since', '1d', '--output', tempDir('ql-plan-market-in-'), ...COMMON, '--json']),
      runCli(['plan', 'kline-backfill', '--codes', 'AAPL.US,700.HK', '--since', '1d', '--output', tempDir('ql-plan-market-pro-'), '--plan', 'professional', '--clock', NOW, '--json']),
    ]);
    for (const r of [inside, professional]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('604');
      expect((JSON.parse(r.stdout) as PlanDoc).plans[0]!.plan.outsideMarket).toBeUndefined();
    }
  }, 60_000);
});
