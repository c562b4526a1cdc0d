/**
 * Accounting that adds up (issue 15), through the built CLI on frozen clocks: the quota charged
 * only for requests that left (unknown outcomes said so), received = written + merged + rejected,
 * exit 3 for rejected records (also among several pipelines and with --json), a note for empty
 * work, kline-latest judging held bars from the data, a failed run's real counts, and codes the
 * service did not serve never counted as rejected rows.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { ROOT, runCli, startCli, tempDir } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';
import { closedPort } from '../helpers/closed-port.js';
import { quickRetry } from './helpers/quick-retry.js';

const FIXTURES = join(ROOT, 'test/fixtures/pipelines');
// Several CLI runs per test, each starting its emulator: slow on a shared machine, never waiting on a rate limit.
// Every test has its own folders, tokens and emulators: they run at once (each mostly waits on its processes).
vi.setConfig({ testTimeout: 120_000 });
const NOW = '2026-11-20T00:00:00Z';

interface Rows {
  received: number;
  written: number;
  merged: number;
  rejected: number;
}
interface Summary {
  status: string;
  exitCode: number;
  requests: Record<string, number>;
  requestsTotal: number;
  requestOutcomes?: { answered: number; unknown: number; unsent: number; rateLimited: number };
  rows: Record<string, Rows>;
  files: { count: number; paths: string[] };
  rejected: number;
  rejectedTo?: string;
  quota: { used?: number; unknown?: number };
  notes: string[];
}

function runs(stdout: string): { exitCode: number; runs: Summary[] } {
  return JSON.parse(stdout) as { exitCode: number; runs: Summary[] };
}

function addsUp(rows: Rows): void {
  expect(rows.received).toBe(rows.written + rows.merged + rows.rejected);
}


function quotaUsed(stateDir: string, token: string): { used: number; unknown?: number } {
  return JSON.parse(readFileSync(join(stateDir, 'quota', `${tokenHash16(token)}.json`), 'utf8')) as { used: number; unknown?: number };
}

describe.concurrent('the quota is charged for what the service can have counted', () => {
  it('a closed port: nothing sent, nothing charged (the quota file and `quota` say 0)', async () => {
    const out = tempDir();
    const token = 'tok-accounting-refused';
    const port = await closedPort();
    const r = await runCli(['run', quickRetry('kline-backfill'), '--codes', 'BTCUSDT,ETHUSDT', '--since', '1d', '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--output', out, '--clock', NOW, '--json'], {
      env: { QUOTELAKE_TOKEN: token },
    });
    expect(r.code, r.stderr).not.toBe(0);
    const s = runs(r.stdout).runs[0]!;
    expect(s.requestsTotal).toBe(0);
    expect(s.requests).toEqual({});
    expect(s.requestOutcomes!.answered).toBe(0);
    expect(s.requestOutcomes!.unknown).toBe(0);
    expect(s.requestOutcomes!.unsent).toBeGreaterThan(0);
    expect(s.quota.used).toBe(0);
    expect(quotaUsed(join(out, '.state'), token).used).toBe(0);
    const q = await runCli(['quota', '--output', out, '--clock', NOW, '--json'], { env: { QUOTELAKE_TOKEN: token } });
    expect((JSON.parse(q.stdout) as { tokens: { usedToday: number; unknownToday: number }[] }).tokens).toMatchObject([{ usedToday: 0, unknownToday: 0 }]);
  });

  it('a run that fails with streams still waiting for a slot: charged for the one request sent, in the summary, the metrics and the quota file', async () => {
    const token = 'tok-accounting-unknown';
    // The service knows another token only: ret 401 to the first request, while the other streams wait for theirs (1 a second).
    const emu = await serveChild([{ token: 'tok-accounting-known', plan: 'basic' }]);
    try {
      const out = tempDir();
      const prom = join(tempDir(), 'run.prom');
      const r = await runCli(['run', 'kline-backfill', '--since', '1h', '--base-url', emu.url, '--plan', 'basic', '--output', out, '--clock', NOW, '--json', '--metrics-textfile', prom], {
        env: { QUOTELAKE_TOKEN: token },
      });
      expect(r.code, r.stderr).toBe(1);
      const s = runs(r.stdout).runs[0]!;
      expect(s.requestsTotal).toBe(1);
      expect(s.quota.used).toBe(1);
      expect(quotaUsed(join(out, '.state'), token).used).toBe(1);
      expect(readFileSync(prom, 'utf8')).toContain(`quotelake_quota_used_requests{token="${tokenHash16(token)}",plan="basic"} 1\n`);
    } finally {
      await emu.stop();
    }
  });

  it('answers lost on the way back are charged and reported as unknown, in the summary and `quota`', async () => {
    const token = 'tok-accounting-dropped';
    const emu = await serveChild([{ token, plan: 'professional', faults: 'drop=1' }]);
    try {
      const out = tempDir();
      const r = await runCli(['run', quickRetry(join(FIXTURES, 'tiny-trades.yaml')), '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json'], {
        env: { QUOTELAKE_TOKEN: token },
      });
      expect(r.code, r.stderr).not.toBe(0);
      const s = runs(r.stdout).runs[0]!;
      expect(s.requestsTotal).toBeGreaterThan(0);
      expect(s.requestOutcomes).toEqual({ answered: 0, unknown: s.requestsTotal, unsent: 0, rateLimited: 0, dailyLimited: 0 });
      expect(s.quota).toMatchObject({ used: s.requestsTotal, unknown: s.requestsTotal });
      expect(quotaUsed(join(out, '.state'), token)).toMatchObject({ used: s.requestsTotal, unknown: s.requestsTotal });
      const q = await runCli(['quota', '--output', out, '--clock', NOW], { env: { QUOTELAKE_TOKEN: token } });
      expect(q.stdout).toContain(`${s.requestsTotal} of today's ${s.requestsTotal} had their answer lost`);
    } finally {
      await emu.stop();
    }
  });
});

describe.concurrent('received = written + merged + rejected', () => {
  it('rows fetched again into the same output are counted as merged, not written', async () => {
    const out = tempDir();
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', out, '--clock', NOW, '--json'];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(0);
    const a = runs(first.stdout).runs[0]!.rows.kline!;
    // A day back from the pinned instant, both ends held: 1,441 minutes and 25 hours.
    expect(a).toEqual({ received: 1441 + 25, written: 1441 + 25, merged: 0, rejected: 0 });
    // Another state dir: no checkpoint, so the same window is fetched again into the same lake.
    const again = await runCli([...args, '--state-dir', join(out, 'other-state')]);
    expect(again.code, again.stderr).toBe(0);
    const b = runs(again.stdout).runs[0]!.rows.kline!;
    expect(b).toEqual({ received: a.received, written: 0, merged: a.received, rejected: 0 });
    const text = await runCli([...args.filter((x) => x !== '--json'), '--state-dir', join(out, 'third-state')]);
    expect(text.stderr).toMatch(/rows kline\s+1,466 received = 0 written \(new\) \+ 1,466 merged \(key already held\) \+ 0 rejected/);
  });

  it('rejected records: exit 3, alone and among several pipelines, with --json, and where they went', async () => {
    const out = tempDir();
    const [alone, several, text] = await Promise.all([
      runCli(['run', join(FIXTURES, 'narrow-decimals.yaml'), '--output', out, '--clock', NOW, '--json']),
      runCli(['run', join(FIXTURES, 'tiny-trades.yaml'), join(FIXTURES, 'narrow-decimals.yaml'), '--output', tempDir(), '--clock', NOW, '--json']),
      runCli(['run', join(FIXTURES, 'narrow-decimals.yaml'), '--output', tempDir(), '--clock', NOW]),
    ]);
    expect(alone.code, alone.stderr).toBe(3);
    const doc = runs(alone.stdout);
    expect(doc.exitCode).toBe(3);
    const s = doc.runs[0]!;
    expect(s).toMatchObject({ status: 'rejected-records', exitCode: 3, rejected: 2, rejectedTo: `${out}/_rejected/` });
    const rows = Object.values(s.rows);
    expect(rows.reduce((n, r) => n + r.rejected, 0)).toBe(s.rejected);
    for (const r of rows) addsUp(r);
    expect(several.code, several.stderr).toBe(3);
    expect(runs(several.stdout).exitCode).toBe(3);
    expect(runs(several.stdout).runs.map((x) => x.exitCode)).toEqual([0, 3]);
    expect(text.code).toBe(3);
    expect(text.stderr).toMatch(/rejected\s+2 records, diverted to .*\/_rejected\//);
    expect(text.stderr).toContain('done, with rejected records (exit 3)');
  });

  it('rejected records with --quiet, as the scheduling recipes run it: exit 3 and one warn line saying how many went where', async () => {
    const out = tempDir();
    const r = await runCli(['run', join(FIXTURES, 'narrow-decimals.yaml'), '--output', out, '--clock', NOW, '--quiet']);
    expect(r.code, r.stderr).toBe(3);
    const warns = r.stderr.split('\n').filter((l) => l.includes('WARN'));
    expect(warns).toHaveLength(1);
    expect(warns[0]).toContain(`WARN: 2 rejected records diverted to ${out}/_rejected/ {"event":"rejected","rejected":2,"to":"${out}/_rejected/"}`);
  });

  it('codes the service left out are notes, never rejected rows: the counts agree', async () => {
    const token = 'tok-accounting-omit';
    const emu = await serveChild([{ token, plan: 'professional', behaviours: 'omit-codes=1' }]);
    try {
      const r = await runCli(['run', join(FIXTURES, 'tiny-trades.yaml'), '--base-url', emu.url, '--plan', 'professional', '--output', tempDir(), '--clock', NOW, '--json'], {
        env: { QUOTELAKE_TOKEN: token },
      });
      const s = runs(r.stdout).runs[0]!;
      expect(s.notes.join('\n')).toMatch(/no data returned for .*BTCUSDT/);
      expect(s.rejected).toBe(0);
      expect(Object.values(s.rows).reduce((n, x) => n + x.rejected, 0)).toBe(0);
      for (const x of Object.values(s.rows)) addsUp(x);
      // Less than asked for: exit 4 (incomplete), not 3 (no record was rejected).
      expect(r.code, r.stderr).toBe(4);
    } finally {
      await emu.stop();
    }
  });
});

describe.concurrent('empty work gets a note', () => {
  it('since in the future: 0 requests, exit 0, and a note that says why', async () => {
    const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-12-01', '--output', tempDir(), '--clock', NOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = runs(r.stdout).runs[0]!;
    expect(s.requestsTotal).toBe(0);
    expect(s.notes).toEqual([expect.stringMatching(/^nothing to do yet: since \(2026-12-01 = 2026-12-01T00:00:00Z\) is in the future \(now 2026-11-20T00:00:0\dZ\)/)]);
  });

  it('nothing new since the checkpoint says so', async () => {
    const out = tempDir();
    // Six hours: one page of each interval, all it takes to hold a checkpoint.
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T06:00:00Z', '--output', out, '--clock', NOW, '--json'];
    expect((await runCli(args)).code).toBe(0);
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    const s = runs(again.stdout).runs[0]!;
    expect(s.requestsTotal).toBe(0);
    expect(s.notes).toContain('nothing new since the last checkpoint: every series is up to date; no request was sent');
  });
});

describe.concurrent('kline-latest judges held bars from the dataset', () => {
  /** The output of kline-latest at NOW: each test goes on from a copy of it. */
  let atNow: string;
  beforeAll(async () => {
    atNow = tempDir();
    const first = await runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--output', atNow, '--clock', NOW, '--json']);
    expect(first.code, first.stderr).toBe(0);
  });
  const copyOfAtNow = (): string => {
    const out = join(tempDir(), 'out');
    cpSync(atNow, out, { recursive: true });
    return out;
  };

  it('after kline-history filled the output, kline-latest does not call its bars missing', async () => {
    const out = copyOfAtNow();
    const latest = (clock: string) => runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--output', out, '--clock', clock, '--json']);
    // Three hours later another pipeline (its own checkpoints) fills the gap into the same output
    // (four hours back: the gap and an hour before it, one page of each interval).
    const history = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '4h', '--output', out, '--clock', '2026-11-20T03:00:00Z', '--json']);
    expect(history.code, history.stderr).toBe(0);
    const second = await latest('2026-11-20T03:00:30Z');
    expect(second.code, second.stderr).toBe(0);
    const s = runs(second.stdout).runs[0]!;
    expect(s.notes.filter((n) => n.includes('are not held'))).toEqual([]);
    // Its bars were held already: merged, and the sum holds.
    addsUp(s.rows.kline!);
    expect(s.rows.kline!.merged).toBeGreaterThan(0);
  });

  it('a real gap is still named', async () => {
    const out = copyOfAtNow();
    const latest = (clock: string) => runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--output', out, '--clock', clock, '--json']);
    const later = await latest('2026-11-20T03:00:30Z');
    expect(runs(later.stdout).runs[0]!.notes).toContain(
      'kline-latest kline/BTCUSDT/1h: bars after 2026-11-20T00:00:00Z and before 2026-11-20T02:00:00Z are not held; run kline-history to fill them',
    );
  });

  it('a gap after downtime is a warn line that --quiet keeps (a scheduled run shows no summary), still exit 0', async () => {
    const out = copyOfAtNow();
    const latest = (clock: string) => runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--output', out, '--clock', clock, '--quiet']);
    const later = await latest('2026-11-20T03:00:30Z');
    expect(later.code, later.stderr).toBe(0);
    const warns = later.stderr.split('\n').filter((l) => l.includes('WARN'));
    expect(warns).toHaveLength(2);
    expect(warns).toEqual(expect.arrayContaining([
      expect.stringContaining('WARN: kline-latest kline/BTCUSDT/1m: bars after 2026-11-20T00:00:00Z and before 2026-11-20T02:59:00Z are not held; run kline-history to fill them'),
      expect.stringContaining('WARN: kline-latest kline/BTCUSDT/1h: bars after 2026-11-20T00:00:00Z and before 2026-11-20T02:00:00Z are not held; run kline-history to fill them'),
    ]));
    expect(warns.every((l) => l.includes('"event":"not-held"'))).toBe(true);
  });
});

describe.concurrent('a failed run reports what it committed and sent', () => {
  it('the service goes away mid-run: files and requests as committed and charged', async () => {
    const token = 'tok-accounting-failed';
    const emu = await serveChild([{ token, plan: 'professional' }], ['--clock', NOW]);
    const out = tempDir();
    const pipeline = join(out, 'failrun.yaml');
    writeFileSync(
      pipeline,
      ['name: failrun', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT]', '  intervals: [1m]', '  since: 300d', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', 'options:', '  commitEveryBatches: 1', ''].join('\n'),
    );
    const manifest = join(out, '_quotelake/manifests/kline.parquet.json');
    const run = startCli(['run', quickRetry(pipeline), '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--quiet'], { env: { QUOTELAKE_TOKEN: token } });
    try {
      // Stop the service once a few commits are in (polled, not slept for a rate limit).
      for (let i = 0; i < 600 && !existsSync(manifest); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(existsSync(manifest)).toBe(true);
    } finally {
      await emu.stop();
    }
    const r = await run.result;
    expect(r.code, r.stderr).not.toBe(0);
    const s = runs(r.stdout).runs[0]!;
    expect(s.status).toBe('failed');
    const live = (JSON.parse(readFileSync(manifest, 'utf8')) as { files: { path: string; rows: number }[] }).files;
    expect(live.length).toBeGreaterThan(0);
    // Every live file was committed by this run and is listed (later commits may have compacted earlier ones).
    for (const f of live) expect(s.files.paths).toContain(`kline/${f.path}`);
    expect(s.files.count).toBeGreaterThanOrEqual(live.length);
    expect(s.rows.kline!.written).toBe(live.reduce((n, f) => n + f.rows, 0));
    // What was sent is what the quota was charged (answered + answer lost).
    const o = s.requestOutcomes!;
    expect(s.requestsTotal).toBe(o.answered + o.unknown);
    expect(s.requestsTotal).toBeGreaterThan(0);
    expect(quotaUsed(join(out, '.state'), token).used).toBe(s.requestsTotal);
  });
});

// Last, on its own: the service's rate windows are timed, so nothing else runs beside it; the
// concurrent describes above run together as one group.
describe('a token on a lower plan than the one configured', () => {
  it('a basic token paced as professional: every bar delivered, the 429s counted, and a note naming the plan', async () => {
    const token = 'tok-accounting-basic';
    // The service's clock at the run's instant and running, so its windows pass as the client's do.
    const emu = await serveChild([{ token, plan: 'basic' }], ['--clock', NOW, '--clock-runs']);
    const run = (plan: string) =>
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '6h', '--base-url', emu.url, '--plan', plan, '--output', tempDir(), '--clock', NOW, '--json'], {
        env: { QUOTELAKE_TOKEN: token, QUOTELAKE_PROGRESS_INTERVAL_MS: '100' },
      });
    try {
      const r = await run('professional');
      expect(r.code, r.stderr).toBe(0);
      const s = runs(r.stdout).runs[0]!;
      const o = s.requestOutcomes!;
      expect(o.rateLimited).toBeGreaterThanOrEqual(3);
      expect(o.answered).toBe(s.requestsTotal);
      // Refused requests are given back: the quota holds only those the service counted.
      expect(s.quota.used).toBe(o.answered - o.rateLimited);
      expect(s.notes).toEqual([
        `the service refused ${o.rateLimited} of ${o.answered} answered requests with 429 (rate limit) although they kept to the professional plan's limits; ` +
          "each was held and sent again, which slowed the run. If the token's plan is lower than professional, set service.plan or --plan to it; otherwise another process is using the same token",
      ]);
      // Progress on the way: a stream is done only when its source says so (never while a refused
      // request waits to go again), so every stream done means every request sent; the quota it
      // shows is what the service charged.
      const count = (text: string | undefined) => Number(text!.replaceAll(',', ''));
      const lines = [...r.stderr.matchAll(/: ([\d,]+)\/[\d,]+ requests .*?([\d,]+)\/([\d,]+) streams done.*quota ([\d,]+)\//g)].map((m) => m.slice(1, 5).map(count));
      expect(lines.length).toBeGreaterThan(3);
      for (const [sent, done, streams, quotaUsed] of lines) {
        if (done === streams) expect(sent).toBe(s.requestsTotal);
        expect(quotaUsed).toBeLessThanOrEqual(s.quota.used!);
      }

      // The same window at the token's own plan: the same rows, no note. (At most the first request
      // can meet the previous process's last second in the service's window.)
      const again = await run('basic');
      expect(again.code, again.stderr).toBe(0);
      const t = runs(again.stdout).runs[0]!;
      expect(t.rows.kline!.received).toBe(s.rows.kline!.received);
      expect(t.rows.kline!.received).toBeGreaterThan(4 * 300);
      expect(t.requestOutcomes!.rateLimited).toBeLessThan(3);
      expect(t.notes).toEqual([]);
    } finally {
      await emu.stop();
    }
  });
});
