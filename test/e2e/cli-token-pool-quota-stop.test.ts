/**
 * A pool's run that stops at the daily quota because the only token covering some codes used up
 * its day, while another token still has quota (crypto on an all-us token and a small professional
 * one), through the real CLI and its built-in emulator on a frozen clock: the stop names that token
 * (redacted), the codes only it covers, and the token with quota left that does not cover them,
 * in the notice, its JSON log line and `quotaStop` of --json; exit 75 as before. Before, it said
 * "the daily request quota is used up", as if the whole pool were spent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-12T15:00:00Z';
const RESET = '2026-11-13T00:00:00.000Z';
const PLANS = 'plans:\n  - name: pro-tiny\n    base: professional\n    perDay: 1\n';

function mixRun(dir: string, codes: string): string[] {
  writeFileSync(join(dir, 'plans.yaml'), PLANS);
  writeFileSync(
    join(dir, 'mix.yaml'),
    `name: mix\nsource:\n  type: kline-history\n  codes: [${codes}]\n  intervals: [1d]\n  since: 2026-10-01T00:00:00Z\n  until: 2026-11-12T00:00:00Z\nsink:\n  type: ndjson\n  path: mix.ndjson\n`,
  );
  return ['run', join(dir, 'mix.yaml'), '--output', join(dir, 'out'), '--plans-file', join(dir, 'plans.yaml'), '--clock', NOW, '--json', '--quiet'];
}

interface RunDoc {
  runs: {
    status: string;
    exitCode: number;
    quota: { resetAt: string };
    tokens: { plan: string; requests: number; exhausted: boolean }[];
    quotaStop?: {
      tokens: { tokenIndex: number; token: string; tokenHash: string; plan: string; resetAt: string }[];
      codes: string[];
      tokensWithQuota: { tokenIndex: number; token: string; tokenHash: string; plan: string; left: number }[];
      resetAt: string;
    };
  }[];
}

describe('a pool stopped at the quota of the token that alone covers some codes', () => {
  it('names the token used up (redacted), the codes only it covers, and the token left that does not cover them', async () => {
    const dir = tempDir();
    const r = await runCli(mixRun(dir, 'AAPL.US, BTCUSDT, ETHUSDT'), { env: { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-pro-tiny:pro-tiny' } });
    expect(r.code, r.stderr).toBe(75);
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect([run.status, run.exitCode]).toEqual(['quota-exhausted', 75]);
    // AAPL.US on the all-us token; one crypto series on pro-tiny's one request, the other stopped.
    expect(run.tokens.map((t) => [t.plan, t.requests, t.exhausted])).toEqual([
      ['all-us', 1, false],
      ['pro-tiny', 1, true],
    ]);
    const [usHash, tinyHash] = (run.tokens as unknown as { tokenHash: string }[]).map((t) => t.tokenHash);
    expect(run.quotaStop).toEqual({
      tokens: [{ tokenIndex: 2, token: 'demo…', tokenHash: tinyHash, plan: 'pro-tiny', resetAt: RESET }],
      codes: ['BTCUSDT', 'ETHUSDT'],
      tokensWithQuota: [{ tokenIndex: 1, token: 'demo…', tokenHash: usHash, plan: 'all-us', left: 1_727_999 }],
      resetAt: RESET,
    });
    expect(r.stderr).toContain(
      `quotelake: mix: the daily request quota of token 2 (demo… [${tinyHash!.slice(0, 8)}], plan pro-tiny) of the 2 tokens of the pool is used up, ` +
        `and it is the only token whose plan covers BTCUSDT, ETHUSDT; the other token, token 1 (demo… [${usHash!.slice(0, 8)}], plan all-us): 1,727,999 requests left, ` +
        `still has quota today but does not cover those codes; completed work is committed. It resets at ${RESET}: run the same command again then to resume. ` +
        `To fetch them before ${RESET}, add to the pool a token on a plan that covers BTCUSDT, ETHUSDT.`,
    );
    expect(r.stderr).not.toContain('the daily request quota is used up');
    expect(r.stderr + r.stdout).not.toContain('demo-pro-tiny');
    expect(r.stderr + r.stdout).not.toContain('demo-all-us');
  });

  it('with --log-format json: the notice is a quota-exhausted line with the tokens and codes as fields', async () => {
    const dir = tempDir();
    const r = await runCli([...mixRun(dir, 'AAPL.US, BTCUSDT, ETHUSDT'), '--log-format', 'json'], { env: { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-pro-tiny:pro-tiny' } });
    expect(r.code, r.stderr).toBe(75);
    const lines = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const stop = lines.find((l) => l.event === 'quota-exhausted')!;
    expect(stop).toMatchObject({
      pipeline: 'mix',
      resetAt: RESET,
      codes: ['BTCUSDT', 'ETHUSDT'],
      tokens: [{ tokenIndex: 2, token: 'demo…', plan: 'pro-tiny', resetAt: RESET }],
      tokensWithQuota: [{ tokenIndex: 1, token: 'demo…', plan: 'all-us', left: 1_727_999 }],
    });
    expect(String(stop.msg ?? stop.message)).toMatch(/only token whose plan covers BTCUSDT, ETHUSDT; the other token, token 1 .* does not cover those codes/);
    expect(r.stderr).not.toContain('demo-pro-tiny');
  });

  it('every token used up: the whole pool is spent, said as before, no quotaStop', async () => {
    const dir = tempDir();
    const r = await runCli(mixRun(dir, 'BTCUSDT, ETHUSDT, EURUSD'), { env: { QUOTELAKE_TOKENS: 'demo-pro-tiny:pro-tiny,demo-professional:pro-tiny' } });
    expect(r.code, r.stderr).toBe(75);
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.tokens.map((t) => [t.requests, t.exhausted])).toEqual([
      [1, true],
      [1, true],
    ]);
    expect(run.quotaStop).toBeUndefined();
    expect(r.stderr).toContain(`quotelake: mix: the daily request quota is used up; completed work is committed. It resets at ${RESET}`);
  });

  it('plan: a professional token beside all-us and all-hk ones counts its requests left once; plan and run both exit 75', async () => {
    const dir = tempDir();
    // us-small's 1 and pro-tiny's 1 (pro-tiny covers .US and crypto) for two .US and one crypto series.
    writeFileSync(join(dir, 'small.yaml'), 'plans:\n  - name: us-small\n    base: all-us\n    perDay: 1\n  - name: pro-tiny\n    base: professional\n    perDay: 1\n');
    const run = mixRun(dir, 'AAPL.US, TSLA.US, BTCUSDT, 700.HK');
    run.splice(run.indexOf('--plans-file') + 1, 1, join(dir, 'small.yaml'));
    const env = { QUOTELAKE_TOKENS: 'demo-us-small:us-small,demo-all-hk:all-hk,demo-pro-tiny:pro-tiny' };
    const plan = await runCli(['plan', ...run.slice(1).filter((a) => a !== '--quiet')], { env });
    expect(plan.code, plan.stderr).toBe(75);
    const planned = (JSON.parse(plan.stdout) as { plans: { plan: { totalRequests: number; coveredQuotaShort?: unknown; notes: string[] } }[] }).plans[0]!.plan;
    expect(planned.totalRequests).toBe(4);
    // Per group, .US fit 2 of us-small and pro-tiny, crypto 1 of pro-tiny: once each, 3 requests want 2.
    expect(planned.coveredQuotaShort).toEqual({ codes: ['AAPL.US', 'TSLA.US', 'BTCUSDT'], requests: 3, remaining: 2 });
    expect(plan.stderr).toContain("quotelake: mix: the 3 requests of AAPL.US,TSLA.US,BTCUSDT exceed the 2 left of today's quota of the tokens whose plan covers them: a run would stop at the daily quota (exit 75)");
    const r = await runCli(run, { env });
    expect(r.code, r.stderr).toBe(75);
    const stopped = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(stopped.tokens.map((t) => [t.plan, t.requests])).toEqual([
      ['us-small', 1],
      ['all-hk', 1],
      ['pro-tiny', 1],
    ]);
    expect(stopped.quotaStop?.tokensWithQuota.map((t) => t.plan)).toEqual(['all-hk']);
  });
});
