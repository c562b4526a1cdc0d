/**
 * Several tokens through the real CLI: an in-process emulator (its clock running from a frozen
 * instant, as the CLI's `--clock`) behind a counting proxy that logs what the service receives.
 * Each token stays inside its own plan, counted per token per window at the service; streams stick
 * to a token; a token whose day is used up hands its streams over and the run still completes; the
 * summary and `quotelake quota` show each token redacted; no token is in any output, log or state.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/api/plans.js';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/index.js';
import { allFiles, runCli, tempDir } from './helpers/cli.js';
import { busiestWindow, startCountingProxy, type CountingProxy } from './helpers/counting-proxy.js';

const NOW = '2026-11-12T15:00:00Z';
// Characters a URL, a comma-separated list and a YAML scalar all care about.
const TOKEN_A = 'pool-A:x,y=1/+%';
const TOKEN_B = 'pool-B tok€n #2';
const TOKENS = [TOKEN_A, TOKEN_B];
const WINDOW = ['--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-12T00:00:00Z', '--clock', NOW];

interface TokenLine {
  token: string;
  tokenHash: string;
  plan: string;
  requests: number;
  rows: number;
  rateLimited: number;
  exhausted: boolean;
  quota: { used: number; limit: number; left: number };
  streams: { started: number; takenOver: number; handedOff: number };
}
interface Summary {
  status: string;
  requestsTotal: number;
  service: { plan: string };
  tokens: TokenLine[];
}

let emu: EmulatorHandle;
let proxy: CountingProxy;
const printed: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    clock: shiftedClock(Date.parse(NOW)),
    customPlans: [{ name: 'tiny', base: 'professional', perDay: 10 }],
    plans: [
      { token: TOKEN_A, plan: 'professional' },
      { token: TOKEN_B, plan: 'professional' },
      { token: `${TOKEN_A}-tiny`, plan: 'tiny' },
    ],
    log: () => undefined,
  });
  proxy = await startCountingProxy(emu.url);
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

function secretsFile(entries: { token: string; plan: string }[], mode = 0o600): string {
  const file = join(tempDir('ql-secrets-'), 'tokens.yaml');
  writeFileSync(file, `tokens:\n${entries.map((e) => `  - token: ${JSON.stringify(e.token)}\n    plan: ${e.plan}\n`).join('')}`);
  chmodSync(file, mode);
  return file;
}

async function run(args: string[], env: Record<string, string>) {
  const t0 = Date.now();
  const r = await runCli(args, { env: { QUOTELAKE_BASE_URL: proxy.url, ...env } });
  if (process.env.DEBUG_POOL) console.log(args.slice(0, 2).join(' '), Date.now() - t0, 'ms');
  printed.push(r.stdout, r.stderr);
  return r;
}

describe('a token pool through the CLI', () => {
  it('two professional tokens: each inside its plan at the service, streams spread and sticky, per-token summary', async () => {
    const output = tempDir();
    const file = secretsFile(TOKENS.map((token) => ({ token, plan: 'professional' })));
    const from = proxy.log.length;
    const r = await run(['run', 'kline-backfill', ...WINDOW, '--output', output, '--json', '--log-level', 'debug', '--log-format', 'json'], {
      QUOTELAKE_TOKENS_FILE: file,
    });
    expect(r.code, r.stderr).toBe(0);
    const s = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    const arrivals = proxy.log.slice(from);

    // What the service received, per token: every answer 200, no window over the plan.
    expect(arrivals.filter((a) => a.ret !== 200)).toEqual([]);
    for (const [i, token] of TOKENS.entries()) {
      const mine = arrivals.filter((a) => a.token === token);
      expect(mine.length).toBe(s.tokens[i]!.requests);
      expect(mine.length).toBeGreaterThan(0);
      expect(busiestWindow(mine.map((a) => a.at), 1000)).toBeLessThanOrEqual(PLANS.professional.perSecond.limit);
      expect(busiestWindow(mine.map((a) => a.at), 60_000)).toBeLessThanOrEqual(PLANS.professional.perMinute.limit);
    }
    expect(arrivals.length).toBe(s.requestsTotal);
    // A series (one code and interval: one stream) is served by one token from its first page to its last.
    const byStream = new Map<string, Set<string>>();
    for (const a of arrivals) {
      const key = `${a.endpoint} ${a.code}`;
      if (!byStream.has(key)) byStream.set(key, new Set());
      byStream.get(key)!.add(a.token);
    }
    for (const tokens of byStream.values()) expect(tokens.size).toBe(1);

    expect(s.service.plan).toBe('pool of 2');
    expect(s.tokens.map((t) => [t.token, t.plan, t.exhausted])).toEqual([
      ['pool…', 'professional', false],
      ['pool…', 'professional', false],
    ]);
    expect(s.tokens.map((t) => t.streams.started).reduce((a, b) => a + b, 0)).toBe(8);
    for (const t of s.tokens) {
      expect(t.streams.started).toBeGreaterThan(0);
      expect(t.quota).toMatchObject({ used: t.requests, limit: PLANS.professional.perDay, left: PLANS.professional.perDay - t.requests });
      expect(t.rows).toBeGreaterThan(0);
    }

    // The text summary: one line per token, redacted, told apart by the hash.
    const text = await run(['run', 'kline-backfill', ...WINDOW, '--output', output], { QUOTELAKE_TOKENS_FILE: file });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(new RegExp(`token 1\\s+pool… \\[${s.tokens[0]!.tokenHash.slice(0, 8)}\\] professional: \\d+ requests`));
    expect(text.stderr).toMatch(new RegExp(`token 2\\s+pool… \\[${s.tokens[1]!.tokenHash.slice(0, 8)}\\] professional: \\d+ requests`));

    // Three readers of what the two runs left (no request sent): at once.
    const [quota, quotaJson, plan] = await Promise.all([
      run(['quota', '--output', output, '--clock', NOW], { QUOTELAKE_TOKENS_FILE: file }),
      run(['quota', '--output', output, '--clock', NOW, '--json'], { QUOTELAKE_TOKENS_FILE: file }),
      run(['plan', 'kline-backfill', ...WINDOW, '--output', output, '--json'], { QUOTELAKE_TOKENS_FILE: file }),
    ]);
    // `quotelake quota`: one line per token of the pool.
    expect(quota.code, quota.stderr).toBe(0);
    for (const t of s.tokens) {
      expect(quota.stdout).toMatch(new RegExp(`pool… \\[${t.tokenHash.slice(0, 8)}\\] \\(pool token \\d, professional\\)\\s+[\\d,]+\\s+1,728,000`));
    }
    const entries = (JSON.parse(quotaJson.stdout) as { tokens: { tokenHash: string; usedToday: number }[] }).tokens;
    expect(entries.map((e) => e.tokenHash).sort()).toEqual(s.tokens.map((t) => t.tokenHash).sort());

    // The plan counts both tokens' rates and days.
    expect(plan.code, plan.stderr).toBe(0);
    const report = (JSON.parse(plan.stdout) as { plans: { service: { plan: string }; quota: { limit: number; used: number } }[] }).plans[0]!;
    expect(report.service.plan).toBe('pool of 2');
    expect(report.quota.limit).toBe(2 * PLANS.professional.perDay);
    expect(report.quota.used).toBe(s.tokens.reduce((a, t) => a + t.quota.used, 0) + (await usedByTextRun(text.stderr)));

    expectNoToken(output);
  }, 120_000);

  it('a token whose day is used up hands its streams to the other: the run completes, the lake equals a one-token run', async () => {
    const plansDir = tempDir('ql-plans-');
    const plansFile = join(plansDir, 'plans.yaml');
    writeFileSync(plansFile, 'plans:\n  - name: tiny\n    base: professional\n    perDay: 10\n');
    const output = tempDir();
    const from = proxy.log.length;
    const pool = JSON.stringify([
      { token: `${TOKEN_A}-tiny`, plan: 'tiny' },
      { token: TOKEN_B, plan: 'professional' },
    ]);
    const r = await run(['run', 'kline-backfill', ...WINDOW, '--output', output, '--json', '--plans-file', plansFile, '--log-level', 'debug'], { QUOTELAKE_TOKENS: pool });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('a token of the pool has used up its day: its streams move to the others');
    expect(r.stderr).toContain('stream moved to another token of the pool');
    const s = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    const arrivals = proxy.log.slice(from);
    // The tiny token sent its 10 and not one more; the service refused nothing.
    expect(arrivals.filter((a) => a.token === `${TOKEN_A}-tiny`)).toHaveLength(10);
    expect(arrivals.filter((a) => a.ret !== 200)).toEqual([]);
    expect(s.tokens[0]).toMatchObject({ plan: 'tiny', requests: 10, exhausted: true, quota: { used: 10, limit: 10, left: 0 } });
    expect(s.tokens[0]!.streams.handedOff).toBeGreaterThan(0);
    expect(s.tokens[1]!.streams.takenOver).toBe(s.tokens[0]!.streams.handedOff);
    expect(s.tokens[1]!.exhausted).toBe(false);

    const single = tempDir();
    const one = await run(['run', 'kline-backfill', ...WINDOW, '--output', single, '--json', '--plan', 'professional'], { QUOTELAKE_TOKEN: TOKEN_B });
    expect(one.code, one.stderr).toBe(0);
    expect(await seriesOf(output)).toEqual(await seriesOf(single));
    expectNoToken(output);
  }, 120_000);

  it('refuses a tokens file inside the project or readable by everyone, a pool beside a single token, and a token in a pipeline file', async () => {
    const project = tempDir('ql-project-');
    writeFileSync(join(project, 'package.json'), '{}\n');
    mkdirSync(join(project, 'secrets'));
    const inside = join(project, 'secrets', 'tokens.yaml');
    writeFileSync(inside, `tokens:\n  - token: ${JSON.stringify(TOKEN_A)}\n    plan: professional\n`);
    chmodSync(inside, 0o600);
    const open = secretsFile([{ token: TOKEN_A, plan: 'professional' }], 0o644);
    const dir = tempDir('ql-pipe-');
    const pipeline = join(dir, 'p.yaml');
    writeFileSync(pipeline, `name: p\nservice:\n  tokens: [${JSON.stringify(TOKEN_A)}]\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
    const misspelt = secretsFile([{ token: TOKEN_A, plan: 'professinal' }]);
    // Six refusals before any request: at once.
    const [r1, r2, r3, r4, r5, r6] = await Promise.all([
      runCli(['run', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--tokens-file', inside], { cwd: project, env: { QUOTELAKE_BASE_URL: proxy.url } }),
      run(['run', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--tokens-file', open], {}),
      run(['run', 'kline-backfill', ...WINDOW, '--output', tempDir()], { QUOTELAKE_TOKENS: `${TOKEN_B}:professional`, QUOTELAKE_TOKEN: TOKEN_A }),
      // A comma inside a token in the short form splits it: the parts are named by position, never quoted.
      run(['run', 'kline-backfill', ...WINDOW, '--output', tempDir()], { QUOTELAKE_TOKENS: `${TOKEN_A}:professional` }),
      run(['validate', pipeline], {}),
      // `quota` reads the pool too: a plan no one knows is named, never a token's row left out.
      run(['quota', '--output', tempDir()], { QUOTELAKE_TOKENS_FILE: misspelt }),
    ]);
    printed.push(r1.stdout, r1.stderr, r6.stdout, r6.stderr);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(`tokens file ${inside} is inside the project folder`);

    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('can be read or written by every user on this machine (mode 644)');
    expect(r2.stderr).toContain(`chmod 600 ${open}`);

    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('both a single token (--token or QUOTELAKE_TOKEN) and a token pool (QUOTELAKE_TOKENS) are set');

    expect(r4.code).toBe(2);
    expect(r4.stderr).toContain('QUOTELAKE_TOKENS: entry 1 of 2: its plan is not a known plan (the entry is token:plan)');
    expect(r4.stderr).toContain('hint: plans: free, basic');

    expect(r5.code).toBe(2);
    expect(r5.stderr).toContain('service: "tokens" is not accepted: tokens never go in a pipeline file');
    expect(r5.stderr).toContain('--tokens-file');

    expect(r6.code).toBe(2);
    expect(r6.stderr).toContain('pool token 1 (pool…): unknown plan "professinal"; did you mean "professional"?');
  }, 120_000);

  it('a token of the pool the service does not know: the error names which one (position and hash), never its text', async () => {
    const unknown = 'pool-C not known';
    const file = secretsFile([{ token: TOKEN_A, plan: 'professional' }, { token: unknown, plan: 'professional' }]);
    const r = await run(['run', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--json'], { QUOTELAKE_TOKENS_FILE: file });
    expect(r.code, r.stderr).toBe(1);
    const s = (JSON.parse(r.stdout) as { runs: (Summary & { error: { code: string; message: string } })[] }).runs[0]!;
    const hash = s.tokens[1]!.tokenHash.slice(0, 8);
    expect(s.error.code).toBe('QL_API_TOKEN_INVALID');
    expect(s.error.message).toMatch(new RegExp(`^/quote-b-api/kline: ret 401 token invalid \\(token 2 of 2 of the pool, pool… \\[${hash}\\]\\) for `));
    expect(r.stderr).toContain(`(token 2 of 2 of the pool, pool… [${hash}])`);
    for (const t of [unknown, encodeURIComponent(unknown)]) expect(r.stdout + r.stderr).not.toContain(t);
  }, 120_000);

  it('no token in anything any of these commands printed', () => {
    const all = printed.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    for (const t of secretForms()) expect(all).not.toContain(t);
  });
});

/** Requests of the text summary's two token rows. */
async function usedByTextRun(stderr: string): Promise<number> {
  return [...stderr.matchAll(/professional: (\d+) requests/g)].reduce((a, m) => a + Number(m[1]), 0);
}

function secretForms(): string[] {
  return [...TOKENS, `${TOKEN_A}-tiny`].flatMap((t) => [t, encodeURIComponent(t), JSON.stringify(t).slice(1, -1)]);
}

/** Not in any file of the lake or its state (quota files, checkpoints, manifests). */
function expectNoToken(output: string): void {
  const files = allFiles(output);
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    const text = readFileSync(f).toString('latin1') + readFileSync(f).toString('utf8');
    for (const t of secretForms()) expect(text.includes(t), `${f} holds a token`).toBe(false);
  }
}

async function seriesOf(output: string): Promise<unknown> {
  const r = await runCli(['inspect', output, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { datasets: { series: unknown[] }[] }).datasets.flatMap((d) => d.series);
}
