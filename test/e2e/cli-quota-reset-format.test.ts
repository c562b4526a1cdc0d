/**
 * One spelling of the quota's reset instant everywhere a script reads it: a run's `--json` summary,
 * `quota --json` (its own count and the coordinator's shared one) and `quota`'s text all print
 * ISO 8601 UTC with milliseconds (`…T00:00:00.000Z`), so comparing them as strings works.
 * `quota` used to print `…T00:00:00Z`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const RESET = '2026-11-13T00:00:00.000Z';
const RUN = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1h', '--quiet', '--json', '--clock', NOW];

interface QuotaDoc {
  tokens: { resetAt: string }[];
  coordinator?: { tokens: { resetAt: string }[] };
}

const summaryResetAt = (stdout: string) => (JSON.parse(stdout) as { runs: { quota: { resetAt: string } }[] }).runs[0]!.quota.resetAt;

describe('the quota reset instant, as a run and quota print it', () => {
  it('is the same string in the run summary, quota --json and the quota listing', async () => {
    const output = join(tempDir('ql-reset-format-'), 'lake');
    const run = await runCli([...RUN, '--output', output]);
    expect(run.code, run.stderr).toBe(0);
    expect(summaryResetAt(run.stdout)).toBe(RESET);
    const [json, text] = await Promise.all([runCli(['quota', '--output', output, '--clock', NOW, '--json']), runCli(['quota', '--output', output, '--clock', NOW])]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as QuotaDoc).tokens.map((t) => t.resetAt)).toEqual([RESET]);
    expect(text.stdout).toContain(`  ${RESET} (UTC midnight)`);
  }, 60_000);

  it('a token given with its plan and no quota file yet has the same spelling', async () => {
    const json = await runCli(['quota', '--state-dir', tempDir('ql-reset-format-empty-'), '--token', 'not-sent-yet', '--plan', 'basic', '--clock', NOW, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as QuotaDoc).tokens.map((t) => t.resetAt)).toEqual([RESET]);
  }, 60_000);

  describe('through the coordinator', () => {
    const redis = useRedisServer();

    it('the shared count\'s reset is spelt as the run\'s', async () => {
      await settleTokens(redis().url, ['demo-professional']);
      const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
      try {
        const output = join(tempDir('ql-reset-format-shared-'), 'lake');
        const common = ['--base-url', emulator.url, '--token', 'demo-professional', '--plan', 'professional', '--coordinator', redis().url];
        const run = await runCli([...RUN, '--output', output, ...common]);
        expect(run.code, run.stderr).toBe(0);
        expect(summaryResetAt(run.stdout)).toBe(RESET);
        const [json, text] = await Promise.all([
          runCli(['quota', '--output', output, '--clock', NOW, '--json', ...common]),
          runCli(['quota', '--output', output, '--clock', NOW, ...common]),
        ]);
        expect(json.code, json.stderr).toBe(0);
        expect((JSON.parse(json.stdout) as QuotaDoc).coordinator?.tokens.map((t) => t.resetAt)).toEqual([RESET]);
        expect(text.stdout).toContain(`  ${RESET} (UTC midnight)`);
      } finally {
        await emulator.close();
      }
    }, 60_000);
  });
});
