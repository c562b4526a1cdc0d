/**
 * A run killed without a word (SIGKILL, a crash) leaves its record `running`; `inspect` only reads,
 * so it cannot mark it, and neither does `state show`; through the built CLI both say the run's
 * process is gone, while a run still going reads as plain `running`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const GONE = 'running (its process is gone, killed or crashed: the next run here marks it interrupted)';

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('inspect of a run whose process is gone', () => {
  it('a live run is running; once SIGKILLed, its process is gone', async () => {
    const output = tempDir();
    const runs = join(output, '.state', 'runs');
    const run = startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '365d', '--clock', '2026-11-20T00:00:00Z', '--quiet', '--output', output]);
    await until(() => existsSync(runs) && readdirSync(runs).some((f) => f.endsWith('.json')));

    const live = await runCli(['inspect', output, '--runs', '1']);
    expect(live.stdout).toMatch(/kline-backfill {2}running {2}/);
    expect(live.stdout).not.toContain('process is gone');
    const liveShow = await runCli(['state', 'show', 'kline-backfill', '--output', output]);
    expect(liveShow.stdout).toMatch(/last run \S+ running, /);

    run.child.kill('SIGKILL');
    await run.result;
    const dead = await runCli(['inspect', output, '--runs', '1']);
    expect(dead.code, dead.stderr).toBe(0);
    expect(dead.stdout).toContain(`kline-backfill  ${GONE}  `);
    const doc = JSON.parse((await runCli(['inspect', output, '--json'])).stdout) as { runs: { status: string; processGone?: boolean }[] };
    expect(doc.runs[0]).toMatchObject({ status: 'running', processGone: true });
    const show = await runCli(['state', 'show', 'kline-backfill', '--output', output]);
    expect(show.stdout).toMatch(new RegExp(`last run \\S+ ${GONE.replace(/[()]/g, '\\$&')}, `));
    const showDoc = JSON.parse((await runCli(['state', 'show', 'kline-backfill', '--output', output, '--json'])).stdout) as { pipelines: { lastRun: unknown }[] };
    expect(showDoc.pipelines[0]!.lastRun).toMatchObject({ status: 'running', processGone: true });
  }, 90_000);
});
