/** SIGTERM stops a run cleanly (exit 130, work committed, resumable); a second signal exits at once. */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';
import { closedPort } from '../helpers/closed-port.js';
import { quickRetry } from './helpers/quick-retry.js';

/** What a shell reports: the exit code, or 128 + the number of the signal that ended the process. */
function exitStatus(r: CliResult): number | null {
  if (r.code !== null) return r.code;
  return r.signal === 'SIGINT' ? 130 : r.signal === 'SIGTERM' ? 143 : r.signal === 'SIGKILL' ? 137 : null;
}

/** Preloaded into the CLI: SIGTERM right after a run's final manifest says it succeeded. */
const SIGNAL_AFTER_RUN = fileURLToPath(new URL('../helpers/signal-after-final-manifest.mjs', import.meta.url));

/** A small backfill as a pipeline file of its own (a command can run several). */
function backfillFile(dir: string, name: string, code: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\nsource:\n  type: kline-history\n  codes: [${code}]\n  intervals: [1h]\n  since: 3d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\noptions:\n  outputDir: ${join(dir, 'out')}\n`);
  return file;
}

type Summary = { exitCode: number; runs: { pipeline: string; status: string; exitCode: number; rows: { kline: { written: number } } }[] };

const LONG = ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--json'];
const ENV = { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' };

// Every test has its own folders and emulator: they run at once (each mostly waits on its process,
// or on the watchdog's 4 s).
describe.concurrent('signals', () => {
  it('SIGTERM: exit 130, finished batches committed, the next run resumes', async () => {
    const output = tempDir();
    // The graceful stop is checked here, not the watchdog (below): give it all the time a loaded machine needs.
    const proc = startCli([...LONG, '--output', output], { env: { ...ENV, QUOTELAKE_STOP_TIMEOUT: '120' } });
    // Past a few dozen requests, so whole series pages are checkpointed.
    await proc.waitForStderr(/: [4-9]\d\/[\d,]+ requests|: \d{3,}\/[\d,]+ requests/);
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGTERM: stopping after the current batch');
    const s = (JSON.parse(r.stdout) as { runs: { status: string; rows: { kline: { written: number } }; requestsTotal: number }[] }).runs[0]!;
    expect(s.status).toBe('interrupted');
    expect(s.rows.kline.written).toBeGreaterThan(0);
    const plan = await runCli(['plan', ...LONG.slice(1), '--output', output]);
    const fresh = await runCli(['plan', ...LONG.slice(1), '--output', tempDir()]);
    const left = (JSON.parse(plan.stdout) as { plans: { plan: { totalRequests: number } }[] }).plans[0]!.plan.totalRequests;
    const all = (JSON.parse(fresh.stdout) as { plans: { plan: { totalRequests: number } }[] }).plans[0]!.plan.totalRequests;
    // Resumable: what is left to fetch is less than a fresh start.
    expect(left).toBeLessThan(all - 10);
  }, 60_000);

  it('with JSON logs, a stopped run says so on a warn line of its own event (run-stopped), after the signal line', async () => {
    const proc = startCli([...LONG, '--output', tempDir(), '--log-format', 'json', '--log-level', 'debug', '--quiet'], { env: { ...ENV, QUOTELAKE_STOP_TIMEOUT: '120' } });
    // Some dozens of requests in: the run is well under way.
    await proc.waitForStderr(/"trace":"[^"]*-[2-9]\d"/);
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(r.code, r.stderr).toBe(130);
    const warns = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 'warn' && l.event !== 'embedded-emulator');
    expect(warns.map((l) => l.event)).toEqual(['signal', 'run-stopped']);
    expect(warns[1]).toMatchObject({ pipeline: 'kline-backfill', msg: 'run aborted; committed work is kept and the next run resumes from it' });
  }, 60_000);

  it('a second SIGINT exits at once with 130', async () => {
    const proc = startCli([...LONG, '--output', tempDir()], { env: ENV });
    await proc.waitForStderr(/\d+ requests/);
    proc.child.kill('SIGINT');
    await proc.waitForStderr(/SIGINT: stopping/);
    proc.child.kill('SIGINT');
    const r = await proc.result;
    // Ended by SIGINT's default action (what a shell reports as 130): process.exit could hang on a stuck thread.
    expect(exitStatus(r)).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGINT again: exiting now; the next run resumes from the last commit');
  }, 60_000);

  it('a second SIGINT to an NDJSON look (no state) does not promise a resume: the next run delivers the whole window again', async () => {
    const proc = startCli([...LONG, '--format', 'ndjson', '--output', tempDir()], { env: ENV });
    await proc.waitForStderr(/\d+ requests/);
    proc.child.kill('SIGINT');
    await proc.waitForStderr(/SIGINT: stopping/);
    proc.child.kill('SIGINT');
    const r = await proc.result;
    expect(exitStatus(r)).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGINT again: exiting now; the rows written so far are kept, and the next run delivers the whole window again (this output keeps no state)');
    expect(r.stderr).not.toContain('resumes from the last commit');
  }, 60_000);

  // The watchdog's own timer (4 s by default) is what bounds the stop; no wall-clock assertion here.
  it('a stop that hangs in a file-system call (a FIFO where the manifest was) is ended by the watchdog', async () => {
    const dir = tempDir();
    const output = join(dir, 'out');
    // Any run that leaves a manifest: a small backfill, not the whole demo.
    const file = backfillFile(dir, 'stuck', 'BTCUSDT');
    const first = await runCli(['run', file, '--clock', '2026-11-20T00:00:00Z']);
    expect(first.code, first.stderr).toBe(0);
    const manifests = join(output, '_quotelake', 'manifests');
    const manifest = readdirSync(manifests).find((n) => n.endsWith('.json'))!;
    rmSync(join(manifests, manifest));
    // Reading a FIFO with no writer blocks in the thread pool for ever: no AbortSignal reaches it.
    execFileSync('mkfifo', [join(manifests, manifest)]);
    const proc = startCli(['run', file, '--clock', '2026-11-20T00:00:00Z'], { env: ENV });
    await proc.waitForStderr(/built-in emulator/);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // now stuck in the manifest read
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGTERM: the run did not stop within 4 s; exiting now (committed work is safe; the next run resumes from the last commit)');
  }, 60_000);

  it('a signal after the run delivered and committed everything: the run succeeded, exit 0', async () => {
    const dir = tempDir();
    const file = backfillFile(dir, 'after-all', 'BTCUSDT');
    const r = await runCli(['run', file, '--clock', '2026-11-20T00:00:00Z', '--json'], { env: { NODE_OPTIONS: `--import=${SIGNAL_AFTER_RUN}` } });
    // The signal did arrive, and said so; there was nothing left for it to stop.
    expect(r.stderr).toContain('quotelake: SIGTERM: stopping');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.exitCode).toBe(0);
    expect(summary.runs.map((run) => [run.pipeline, run.status, run.exitCode])).toEqual([['after-all', 'succeeded', 0]]);
    // Three days of hourly bars and the forming one (72, or 73 when `since` lands on a whole hour).
    expect(summary.runs[0]!.rows.kline.written).toBeGreaterThanOrEqual(72);
    expect(summary.runs[0]!.rows.kline.written).toBeLessThanOrEqual(73);
  }, 60_000);

  it('a signal between two pipelines: the first succeeded, the second is named as not run, exit 130', async () => {
    const dir = tempDir();
    const first = backfillFile(dir, 'first', 'BTCUSDT');
    const second = backfillFile(dir, 'second', 'ETHUSDT');
    const r = await runCli(['run', first, second, '--clock', '2026-11-20T00:00:00Z', '--json'], { env: { NODE_OPTIONS: `--import=${SIGNAL_AFTER_RUN}` } });
    expect(r.code, r.stderr).toBe(130);
    const summary = JSON.parse(r.stdout) as Summary & { notRun: { pipeline: string; file: string }[] };
    expect(summary.exitCode).toBe(130);
    expect(summary.runs.map((run) => [run.pipeline, run.status])).toEqual([['first', 'succeeded']]);
    expect(summary.notRun).toEqual([{ pipeline: 'second', file: second }]);
    expect(r.stderr).toContain(`quotelake: SIGTERM: not run: second (${second}); run the command again to run it`);
    // For a log collector: the same as a JSON line, stderr all JSON lines.
    const json = await runCli(['run', first, second, '--clock', '2026-11-20T00:00:00Z', '--output', join(dir, 'again'), '--log-format', 'json', '--quiet'], {
      env: { NODE_OPTIONS: `--import=${SIGNAL_AFTER_RUN}` },
    });
    expect(json.code, json.stderr).toBe(130);
    const lines = json.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.event === 'not-run')).toMatchObject({ level: 'warn', reason: 'SIGTERM', pipelines: ['second'] });
  }, 60_000);

  it('a failed pipeline keeps the next from running, and the next is named', async () => {
    const dir = tempDir();
    // The first fails at its last retry, a few milliseconds after its first attempt.
    const first = quickRetry(backfillFile(dir, 'first', 'BTCUSDT'));
    const second = backfillFile(dir, 'second', 'ETHUSDT');
    const service = ['--base-url', `http://127.0.0.1:${await closedPort()}`, '--plan', 'professional'];
    const r = await runCli(['run', first, second, ...service, '--clock', '2026-11-20T00:00:00Z', '--json'], { env: { QUOTELAKE_TOKEN: 'tok-not-run' } });
    expect(r.code, r.stderr).toBe(1);
    const summary = JSON.parse(r.stdout) as Summary & { notRun: { pipeline: string; file: string }[] };
    expect(summary.runs.map((run) => [run.pipeline, run.status])).toEqual([['first', 'failed']]);
    expect(summary.notRun).toEqual([{ pipeline: 'second', file: second }]);
    expect(r.stderr).toContain(`quotelake: first failed: not run: second (${second}); run the command again to run it`);
  }, 60_000);

  it('--stop-timeout must be a positive number of seconds (exit 2 before anything runs)', async () => {
    // Four refusals before anything runs: at once.
    const [env, ...refused] = await Promise.all([
      runCli([...LONG, '--output', tempDir()], { env: { QUOTELAKE_STOP_TIMEOUT: 'never' } }),
      ...['0', '-1', 'soon'].map((bad) => runCli([...LONG, '--output', tempDir(), '--stop-timeout', bad])),
    ]);
    for (const r of refused) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/stop-timeout/);
    }
    expect(env.code, env.stderr).toBe(2);
    expect(env.stderr).toContain('QUOTELAKE_STOP_TIMEOUT');
  }, 60_000);
});
