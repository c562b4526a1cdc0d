/** SIGTERM stops a run cleanly (exit 130, work committed, resumable); a second signal exits at once. */
import { readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';

/** What a shell reports: the exit code, or 128 + the number of the signal that ended the process. */
function exitStatus(r: CliResult): number | null {
  if (r.code !== null) return r.code;
  return r.signal === 'SIGINT' ? 130 : r.signal === 'SIGTERM' ? 143 : r.signal === 'SIGKILL' ? 137 : null;
}

const LONG = ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--json'];
const ENV = { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' };

describe('signals', () => {
  it('SIGTERM: exit 130 within 5 s, finished batches committed, the next run resumes', async () => {
    const output = tempDir();
    const proc = startCli([...LONG, '--output', output], { env: ENV });
    // Past a few dozen requests, so whole series pages are checkpointed.
    await proc.waitForStderr(/: [4-9]\d\/[\d,]+ requests|: \d{3,}\/[\d,]+ requests/);
    const sentAt = Date.now();
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(Date.now() - sentAt).toBeLessThan(5000);
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

  it('a stop that hangs in a file-system call (a FIFO where the manifest was) still ends within 5 s', async () => {
    const output = tempDir();
    const first = await runCli(['run', 'demo', '--clock', '2026-11-20T00:00:00Z', '--output', output]);
    expect(first.code, first.stderr).toBe(0);
    const manifests = join(output, '_quotelake', 'manifests');
    const manifest = readdirSync(manifests).find((n) => n.endsWith('.json'))!;
    rmSync(join(manifests, manifest));
    // Reading a FIFO with no writer blocks in the thread pool for ever: no AbortSignal reaches it.
    execFileSync('mkfifo', [join(manifests, manifest)]);
    const proc = startCli(['run', 'demo', '--clock', '2026-11-20T00:00:00Z', '--output', output], { env: ENV });
    await proc.waitForStderr(/built-in emulator/);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // now stuck in the manifest read
    const sentAt = Date.now();
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(Date.now() - sentAt).toBeLessThan(5000);
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGTERM: the run did not stop within 4 s; exiting now (committed work is safe; the next run resumes from the last commit)');
  }, 60_000);
});
