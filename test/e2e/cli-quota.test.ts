/**
 * Exit 75 at the daily quota, and the next run resumes. Both sides of the quota are exercised, on
 * frozen days (`--clock`), so nothing depends on today's date or on a run crossing midnight:
 *
 * 1. The client's own count (`<state>/quota/<hash>.json`, shared by every process using the token):
 *    seeded as if other runs had used all but 6 requests of the day. The run stops cleanly after 6,
 *    commits what it has, prints the reset instant and exits 75. The rerun, on the next day,
 *    resumes from the checkpoints and the data equals an uninterrupted run's.
 * 2. The service's count: an in-process emulator on a manual clock whose Free-plan token has
 *    used its 1000 requests (sent by the test, moving the emulator clock 10 s per request, so no
 *    real waiting). The CLI's first request is answered `daily limit exceeded`: exit 75. After
 *    midnight on both sides (emulator clock +24 h, the CLI's --clock a day later): exit 0.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/index.js';
import { runCli, ROOT, tempDir } from './helpers/cli.js';

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function quotaFile(stateDir: string, token: string): string {
  return join(stateDir, 'quota', `${tokenHash16(token)}.json`);
}

/** The frozen "now" of the first part: the day after the window it fetches. */
const NOW = '2026-11-12T15:00:00Z';

function writeQuota(stateDir: string, token: string, used: number, limit: number, day: string): void {
  mkdirSync(join(stateDir, 'quota'), { recursive: true });
  const doc = { version: 1, tokenHash: tokenHash16(token), day, timeZone: 'UTC', used, limit, updatedAt: NOW };
  writeFileSync(quotaFile(stateDir, token), `${JSON.stringify(doc)}\n`);
}

interface Series {
  series: string;
  rows: number;
  first: string;
  last: string;
}
async function seriesOf(output: string): Promise<Series[]> {
  const r = await runCli(['inspect', output, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { datasets: { series: Series[] }[] }).datasets.flatMap((d) => d.series);
}

const WINDOW = ['--codes', 'BTCUSDT,ETHUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
const LIMIT = 1_728_000;

// The two describes share nothing (own outputs, own emulators): at once.
describe.concurrent('the daily quota of the client (shared quota file)', () => {
  it('stops at the quota with exit 75 and the reset instant, then resumes to the same data', async () => {
    const output = tempDir();
    const stateDir = join(output, '.state');
    writeQuota(stateDir, 'demo-professional', LIMIT - 6, LIMIT, utcDay(Date.parse(NOW)));
    // The uninterrupted run to compare with has its own output and quota file: it runs meanwhile.
    const fresh = tempDir();
    const wholeRun = runCli(['run', 'kline-backfill', ...WINDOW, '--output', fresh, '--json', '--clock', NOW]);

    const first = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', output, '--json', '--clock', NOW]);
    expect(first.code, first.stderr).toBe(75);
    const nextMidnight = '2026-11-13T00:00:00.000Z';
    expect(first.stderr).toContain(`the daily request quota is used up; completed work is committed. It resets at ${nextMidnight}`);
    const s1 = (JSON.parse(first.stdout) as { runs: { status: string; requestsTotal: number; files: { count: number }; quota: { resetAt: string; left: number } }[] }).runs[0]!;
    expect(s1.status).toBe('quota-exhausted');
    expect(s1.requestsTotal).toBe(6);
    expect(s1.quota).toMatchObject({ resetAt: nextMidnight, left: 0 });
    expect(s1.files.count).toBeGreaterThan(0);

    const quota = await runCli(['quota', '--output', output, '--clock', NOW]);
    expect(quota.stdout).toMatch(/demo-professional \(the emulator's demo token\)\s+1,728,000\s+1,728,000\s+0/);

    // The next day: the shared count starts again at 0.
    const tomorrow = new Date(Date.parse(NOW) + DAY_MS).toISOString();
    const second = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', output, '--json', '--clock', tomorrow]);
    expect(second.code, second.stderr).toBe(0);
    const s2 = (JSON.parse(second.stdout) as { runs: { requestsTotal: number }[] }).runs[0]!;

    const whole = await wholeRun;
    expect(whole.code, whole.stderr).toBe(0);
    const total = (JSON.parse(whole.stdout) as { runs: { requestsTotal: number }[] }).runs[0]!.requestsTotal;
    // Resumed, not restarted: the two halves send what one run sends (a page may be re-read once per series).
    expect(6 + s2.requestsTotal).toBeGreaterThanOrEqual(total);
    expect(6 + s2.requestsTotal).toBeLessThanOrEqual(total + 4);
    const [resumed, uninterrupted] = await Promise.all([seriesOf(output), seriesOf(fresh)]);
    expect(resumed).toEqual(uninterrupted);
  }, 120_000);

  it('an NDJSON look (no state) at the quota says the next run starts over, not that it resumes', async () => {
    const output = tempDir();
    writeQuota(join(output, '.state'), 'demo-professional', LIMIT - 2, LIMIT, utcDay(Date.parse(NOW)));
    const r = await runCli(['run', 'kline-backfill', ...WINDOW, '--format', 'ndjson', '--output', output, '--json', '--clock', NOW]);
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toContain('the daily request quota is used up. It resets at 2026-11-13T00:00:00.000Z: this output keeps no state, so a run then delivers the whole window again.');
    expect(r.stderr).not.toContain('to resume');
    // The --json document goes to stderr when stdout carries the rows.
    const doc = JSON.parse(r.stderr.slice(r.stderr.indexOf('{\n'))) as { runs: { status: string; resumable?: boolean; requestsTotal: number }[] };
    expect(doc.runs[0]).toMatchObject({ status: 'quota-exhausted', resumable: false, requestsTotal: 2 });
  }, 60_000);
});

describe('a polling run at the quota', () => {
  it('says the next run takes all its rounds anew, not that it resumes', async () => {
    const output = tempDir();
    const pipeline = join(output, 'trades.yaml');
    writeFileSync(pipeline, ['name: trades', 'source:', '  type: trade-snapshot', '  codes: [EURUSD]', '  everySeconds: 1', '  count: 5', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
    writeQuota(join(output, '.state'), 'demo-professional', LIMIT - 2, LIMIT, utcDay(Date.parse(NOW)));
    const r = await runCli(['run', pipeline, '--output', output, '--json', '--clock', NOW]);
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toContain('the daily request quota is used up; the rounds completed are committed. It resets at 2026-11-13T00:00:00.000Z: a polling run is not resumed, so a run then takes all its rounds anew.');
    expect(r.stderr).not.toContain('to resume');
    const doc = JSON.parse(r.stdout) as { runs: { status: string; resumable?: boolean; notResumedBecause?: string; requestsTotal: number }[] };
    expect(doc.runs[0]).toMatchObject({ status: 'quota-exhausted', resumable: false, notResumedBecause: 'polling', requestsTotal: 2 });
  }, 60_000);
});

describe.concurrent('the daily limit of the service', () => {
  let emu: EmulatorHandle | undefined;
  afterAll(async () => {
    await emu?.close();
  });

  it('exits 75 on "daily limit exceeded" and resumes after midnight', async () => {
    const start = Date.parse('2026-11-12T00:01:00Z');
    const clock = new ManualClock(start);
    emu = await startEmulator({ port: 0, clock, log: () => undefined });
    const query = encodeURIComponent(JSON.stringify({ trace: 't', data: { symbol_list: [{ code: 'BTCUSDT' }] } }));
    for (let i = 0; i < 1000; i++) {
      const r = (await fetch(`${emu.url}/quote-b-api/trade-tick?token=demo-free&query=${query}`).then((x) => x.json())) as { ret: number };
      expect(r.ret).toBe(200);
      clock.advance(10_000);
    }
    const output = tempDir();
    const pipeline = join(ROOT, 'test/fixtures/pipelines/tiny-trades.yaml');
    const args = ['run', pipeline, '--base-url', emu.url, '--plan', 'free', '--output', output];
    const stopped = await runCli([...args, '--clock', new Date(clock.now()).toISOString(), '--log-level', 'info'], { env: { QUOTELAKE_TOKEN: 'demo-free', QUOTELAKE_LOG_FORMAT: 'json' } });
    expect(stopped.code, stopped.stderr).toBe(75);
    expect(stopped.stderr).toMatch(/daily request quota used up|daily request quota is used up/);
    // The log alone says the run stopped at the quota, not that it delivered everything.
    const end = stopped.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'run-end');
    expect(end).toMatchObject({ status: 'succeeded', stoppedAtQuota: true });
    const file = JSON.parse(readFileSync(quotaFile(join(output, '.state'), 'demo-free'), 'utf8')) as { used: number; limit: number };
    expect(file).toMatchObject({ used: 1000, limit: 1000 });

    await fetch(`${emu.url}/_emulator/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: DAY_MS }) });
    const resumed = await runCli([...args, '--json', '--clock', new Date(clock.now()).toISOString()], { env: { QUOTELAKE_TOKEN: 'demo-free' } });
    expect(resumed.code, resumed.stderr).toBe(0);
    const s = (JSON.parse(resumed.stdout) as { runs: { rows: { trade: { written: number } }; quota: { left: number } }[] }).runs[0]!;
    expect(s.rows.trade.written).toBeGreaterThanOrEqual(2);
    expect(s.quota.left).toBe(999);
  }, 120_000);
});
