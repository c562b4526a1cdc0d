/**
 * A pool of market-limited tokens (all-us, all-hk, a custom plan with `market: US`) through the real
 * CLI and its built-in emulator, on a frozen clock: every series goes to a token whose plan covers
 * its code, so a kline backfill of .US and .HK codes completes; when the tokens covering .US have
 * used up their day, the run stops as an exhausted pool does (exit 75), never with the 604 of the
 * token that refuses them. Before: a .US series given to the all-hk token failed the run (exit 1).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 90_000 });
const NOW = '2026-11-12T15:00:00Z';
const PIPELINE = `name: stocks
source:
  type: kline-history
  codes: [AAPL.US, TSLA.US, 700.HK, 857.HK]
  intervals: [1d]
  since: 2026-10-01T00:00:00Z
  until: 2026-11-12T00:00:00Z
sink:
  type: ndjson
  path: stocks.ndjson
`;

/** The pipeline file in a folder of its own, and the arguments of a run of it there. */
function stocksRun(dir: string): string[] {
  writeFileSync(join(dir, 'stocks.yaml'), PIPELINE);
  return ['run', join(dir, 'stocks.yaml'), '--output', join(dir, 'out'), '--clock', NOW, '--json', '--quiet'];
}

interface RunDoc {
  exitCode: number;
  runs: {
    status: string;
    error?: { code: string; message: string };
    datasets?: unknown;
    tokens: { plan: string; requests: number; exhausted: boolean; streams: { started: number; takenOver: number; handedOff: number } }[];
    quotaStop?: unknown;
  }[];
}

interface PlanDoc {
  plans: { plan: { totalRequests: number; estimatedMs: number; outsideMarket?: { codes: string[]; hint: string } } }[];
}

describe('a pool of all-us and all-hk tokens through the CLI', () => {
  it('a kline backfill of .US and .HK codes: each series on the token that covers it, exit 0', async () => {
    // all-hk first: an idle pool's first choice, whatever the series' code.
    const r = await runCli(stocksRun(tempDir()), {
      env: { QUOTELAKE_TOKENS: 'demo-all-hk:all-hk,demo-all-us:all-us' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('604');
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.status).toBe('succeeded');
    expect(run.tokens.map((t) => [t.plan, t.requests, t.streams.started, t.streams.takenOver])).toEqual([
      ['all-hk', 2, 2, 0],
      ['all-us', 2, 2, 0],
    ]);
  });

  it('the .US tokens used up: exit 75 at their reset, the all-hk token never asked for a .US code', async () => {
    const dir = tempDir();
    const plansFile = join(dir, 'plans.yaml');
    writeFileSync(plansFile, 'plans:\n  - name: us-tiny\n    base: all-us\n    perDay: 1\n');
    const r = await runCli([...stocksRun(dir), '--plans-file', plansFile], {
      env: { QUOTELAKE_TOKENS: 'demo-us-tiny:us-tiny,demo-all-hk:all-hk' },
    });
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).not.toContain('604');
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.status).toBe('quota-exhausted');
    expect(r.stderr).toContain('It resets at 2026-11-13T00:00:00.000Z');
    expect(run.tokens[0]).toMatchObject({ plan: 'us-tiny', requests: 1, exhausted: true });
    // Said as the stop of the one token covering .US, the all-hk token's quota left: not the whole pool's.
    expect(run.quotaStop).toMatchObject({ codes: ['AAPL.US', 'TSLA.US'], tokens: [{ tokenIndex: 1, plan: 'us-tiny' }], tokensWithQuota: [{ tokenIndex: 2, plan: 'all-hk' }] });
    expect(r.stderr).toMatch(/the daily request quota of token 1 \(demo… \[[0-9a-f]{8}\], plan us-tiny\) of the 2 tokens of the pool is used up, and it is the only token whose plan covers AAPL\.US, TSLA\.US/);
    // The all-hk token served its two .HK series and took over no .US one.
    expect(run.tokens[1]).toMatchObject({ plan: 'all-hk', requests: 2, exhausted: false, streams: { started: 2, takenOver: 0, handedOff: 0 } });
  });

  it('plan: crypto on all-us and professional is timed on the professional token, as a run of it on that token alone', async () => {
    const args = ['plan', 'kline-backfill', '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-12T00:00:00Z', '--clock', NOW, '--json'];
    const [pool, alone] = await Promise.all([
      runCli([...args, '--output', tempDir()], { env: { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-professional:professional' } }),
      runCli([...args, '--output', tempDir(), '--plan', 'professional']),
    ]);
    expect([pool.code, alone.code], pool.stderr + alone.stderr).toEqual([0, 0]);
    const [p, a] = [pool, alone].map((r) => (JSON.parse(r.stdout) as PlanDoc).plans[0]!.plan);
    expect(p!.totalRequests).toBe(a!.totalRequests);
    expect(p!.estimatedMs).toBe(a!.estimatedMs);
    // 116 requests at one professional token's 20 a second; the pool's sum of both said about half of it.
    expect([p!.totalRequests, p!.estimatedMs]).toEqual([116, 5_000]);
  });

  it('snapshots: one market\'s codes run on its token; .US and .HK together are warned of by plan, and the run meets that 604', async () => {
    const pool = { QUOTELAKE_TOKENS: 'demo-all-hk:all-hk,demo-all-us:all-us' };
    // One round of order books.
    const dir = tempDir();
    writeFileSync(join(dir, 'books.yaml'), 'name: books\nsource:\n  type: depth-snapshot\n  codes: [AAPL.US]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const snapshot = [join(dir, 'books.yaml'), '--clock', NOW, '--json'];
    const us = await runCli(['run', ...snapshot, '--codes', 'AAPL.US,TSLA.US', '--output', tempDir(), '--quiet'], { env: pool });
    expect(us.code, us.stderr).toBe(0);
    const usRun = (JSON.parse(us.stdout) as RunDoc).runs[0]!;
    expect(usRun.tokens.map((t) => [t.plan, t.requests > 0, t.streams.started])).toEqual([
      ['all-hk', false, 0],
      ['all-us', true, 1],
    ]);

    const mixed = ['--codes', '700.HK,AAPL.US', '--output', tempDir()];
    const plan = await runCli(['plan', ...snapshot, ...mixed], { env: pool });
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as PlanDoc).plans[0]!.plan.outsideMarket?.codes).toEqual(['AAPL.US']);
    expect(plan.stderr).toContain("a run stops at ret 604 code unauthorized for AAPL.US (exit 1)\n  hint: a polling source's request carries the codes of several markets together");
    const run = await runCli(['run', ...snapshot, ...mixed, '--quiet'], { env: pool });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('ret 604 code unauthorized for AAPL.US');
  });

  it('plan: crypto on all-us and a small professional token exits 75 when that token\'s day is short, as the run then does', async () => {
    const dir = tempDir();
    const plansFile = join(dir, 'plans.yaml');
    writeFileSync(plansFile, 'plans:\n  - name: pro-small\n    base: professional\n    perDay: 50\n');
    const env = { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-pro-small:pro-small' };
    const args = ['kline-backfill', '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-12T00:00:00Z', '--clock', NOW, '--plans-file', plansFile, '--output', join(dir, 'out')];
    const plan = await runCli(['plan', ...args], { env });
    expect(plan.code, plan.stderr).toBe(75);
    expect(plan.stderr).toContain("quotelake: kline-backfill: the 116 requests of BTCUSDT,ETHUSDT,EURUSD,GOLD exceed the 50 left of today's quota of the tokens whose plan covers them: a run would stop at the daily quota (exit 75)");
    const run = await runCli(['run', ...args, '--quiet'], { env });
    expect(run.code, run.stderr).toBe(75);
  });
});

