/**
 * The service's `daily limit exceeded` is a refusal it counts toward nothing: a run's summary and
 * `--json` say how many of its answered requests were such refusals, so "answered" minus the
 * refusals is what the service served. Through the built CLI against `quotelake serve` with a
 * custom plan of 3 requests a day, on frozen clocks; the client is told a bigger plan, so the
 * service's cap is what stops it (as with two runs on one token and two state dirs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 120_000 });
const NOW = '2026-11-20T12:00:00Z';
const TOKEN = 'tok-daily-refusal';
const SERVED_PER_DAY = 3;

interface Summary {
  status: string;
  requestsTotal: number;
  requestOutcomes: { answered: number; unknown: number; unsent: number; rateLimited: number; dailyLimited: number };
}

describe('a daily-limit refusal is not counted as a served request', () => {
  let url = '';
  let stop: () => Promise<unknown> = async () => undefined;
  beforeAll(async () => {
    const plans = join(tempDir('ql-serve-'), 'plans.json');
    writeFileSync(plans, JSON.stringify({ plans: [{ name: 'tiny', base: 'professional', perDay: SERVED_PER_DAY }], tokens: [{ token: TOKEN, plan: 'tiny' }] }));
    const proc = startCli(['serve', '--port', '0', '--plans-file', plans, '--clock', NOW]);
    url = (await proc.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
    stop = () => {
      proc.child.kill('SIGTERM');
      return proc.result;
    };
  });
  afterAll(() => stop());

  const args = (output: string) => ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2d', '--base-url', url, '--plan', 'professional', '--output', output, '--clock', NOW];

  it('the run that meets the cap: --json counts its refusals apart from what was served', async () => {
    const r = await runCli([...args(tempDir()), '--json'], { env: { QUOTELAKE_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(75);
    const s = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    expect(s.status).toBe('quota-exhausted');
    expect(s.requestOutcomes.dailyLimited).toBeGreaterThanOrEqual(1);
    expect(s.requestOutcomes.answered - s.requestOutcomes.dailyLimited - s.requestOutcomes.rateLimited).toBe(SERVED_PER_DAY);
    expect(s.requestsTotal).toBe(s.requestOutcomes.answered + s.requestOutcomes.unknown);
  });

  it('a second run on the used-up token (another output): every request it sent is said to be refused, in the summary', async () => {
    const r = await runCli(args(tempDir()), { env: { QUOTELAKE_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toMatch(/requests +(\d+) sent; \1 refused with 429 daily limit exceeded \(not counted by the service; nothing more sent today\)\n/);
  });
});
