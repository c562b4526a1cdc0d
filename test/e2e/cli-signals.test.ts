/** SIGTERM stops a run cleanly (exit 130, work committed, resumable); a second signal exits at once. */
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const LONG = ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--json'];
const ENV = { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' };

describe('signals', () => {
  it('SIGTERM: exit 130, finished batches committed, the next run resumes', async () => {
    const output = tempDir();
    const proc = startCli([...LONG, '--output', output], { env: ENV });
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

  it('a second SIGINT exits at once with 130', async () => {
    const proc = startCli([...LONG, '--output', tempDir()], { env: ENV });
    await proc.waitForStderr(/\d+ requests/);
    proc.child.kill('SIGINT');
    await proc.waitForStderr(/SIGINT: stopping/);
    proc.child.kill('SIGINT');
    const r = await proc.result;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('quotelake: SIGINT again: exiting now; the next run resumes from the last commit');
  }, 60_000);
});
