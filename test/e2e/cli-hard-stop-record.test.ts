/**
 * A run ended at once by a second signal marks its own record `interrupted`, with the counts it had,
 * instead of leaving it `running` until the next run on the output finds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const LONG = ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d'];

interface RunRecord {
  status: string;
  startedAt: string;
  finishedAt?: string;
  requests: Record<string, number>;
  rows: { kline: { received: number } };
}

describe('a hard stop', () => {
  it('marks the run record interrupted as it exits (130), with the requests it sent', async () => {
    const output = tempDir();
    const proc = startCli([...LONG, '--output', output], { env: { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' } });
    await proc.waitForStderr(/: [1-9]\d+\/[\d,]+ requests/);
    proc.child.kill('SIGINT');
    await proc.waitForStderr(/SIGINT: stopping/);
    proc.child.kill('SIGINT');
    const r = await proc.result;
    // Ended by SIGINT itself (a shell's 130), as every hard stop.
    expect(r.signal === 'SIGINT' || r.code === 130, r.stderr).toBe(true);
    expect(r.stderr).toContain('quotelake: SIGINT again: exiting now; the next run resumes from the last commit');
    const dir = join(output, '.state', 'runs');
    const records = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunRecord);
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(record.status).toBe('interrupted');
    expect(Date.parse(record.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(record.startedAt));
    expect(record.requests['/quote-b-api/kline']).toBeGreaterThanOrEqual(10);
    expect(record.rows.kline.received).toBeGreaterThan(0);

    // What state show says of it, before any other run.
    const show = await runCli(['state', 'show', 'kline-backfill', '--output', output, '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect((JSON.parse(show.stdout) as { pipelines: { lastRun: { status: string } }[] }).pipelines[0]!.lastRun.status).toBe('interrupted');
  }, 60_000);
});
