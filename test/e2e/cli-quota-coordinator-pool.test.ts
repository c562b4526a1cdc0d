/**
 * `quota --coordinator` with a token pool whose run went through the coordinator: the run writes no
 * quota file, so the local part must not list each pool token at "0 used" under the shared table.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const POOL = ['demo-professional', 'demo-premium'];

describe('quota of a pool run through the coordinator', () => {
  const redis = useRedisServer();

  it('names the pool tokens as having no quota file instead of 0 used', async () => {
    await settleTokens(redis().url, POOL);
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const output = join(tempDir('ql-quota-pool-'), 'lake');
      const env = { QUOTELAKE_TOKENS: 'demo-professional:professional,demo-premium:premium' };
      const common = ['--base-url', emulator.url, '--clock', NOW, '--coordinator', redis().url];
      const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT', '--since', '1d', '--output', output, '--quiet', ...common], { env });
      expect(run.code, run.stderr).toBe(0);
      const quota = await runCli(['quota', '--output', output, ...common], { env });
      expect(quota.code, quota.stderr).toBe(0);
      expect(quota.stdout).toMatch(/shared quota in redis:\/\/127\.0\.0\.1:\d+ \(every process and host on the token\)\n.*\n  demo… \[[0-9a-f]{8}\] \(pool token \d, \w+\)\s+[1-9]/);
      expect(quota.stdout).toContain(`no quota files under ${join(output, '.state', 'quota')} (a run through the coordinator writes none`);
      // No local row with 0 used for either pool token.
      expect(quota.stdout).not.toMatch(/pool token \d, \w+\)\s+0\s/);
    } finally {
      await emulator.close();
    }
  });

  it('beside a quota file of an earlier run without the coordinator, says which tokens have none', async () => {
    await settleTokens(redis().url, POOL);
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const output = join(tempDir('ql-quota-pool-mixed-'), 'lake');
      const common = ['--base-url', emulator.url, '--clock', NOW];
      const local = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', output, '--quiet', '--token', 'demo-basic', ...common]);
      expect(local.code, local.stderr).toBe(0);
      const env = { QUOTELAKE_TOKENS: 'demo-professional:professional,demo-premium:premium' };
      const quota = await runCli(['quota', '--output', output, '--coordinator', redis().url, ...common], { env });
      expect(quota.code, quota.stderr).toBe(0);
      expect(quota.stdout).toMatch(/  demo-basic \(the emulator's demo token\)\s+[1-9]/);
      expect(quota.stdout).toMatch(/  demo… \[[0-9a-f]{8}\] \(pool token 1, professional\): no quota file here \(a run through the coordinator writes none: its count is the shared one above\)/);
      expect(quota.stdout).not.toMatch(/pool token \d, \w+\)\s+0\s/);
    } finally {
      await emulator.close();
    }
  });
});
