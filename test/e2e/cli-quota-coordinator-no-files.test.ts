/**
 * `quota --coordinator` after runs that went through the coordinator: those runs write no quota
 * file (their day is counted in Redis), so the state dir's line must not read as "nothing sent".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'demo-professional';

describe('quota after a coordinated run', () => {
  const redis = useRedisServer();

  it('shows the shared count and says why the state dir has no quota file', async () => {
    await settleTokens(redis().url, [TOKEN]);
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const output = join(tempDir('ql-quota-nofile-'), 'lake');
      const common = ['--base-url', emulator.url, '--token', TOKEN, '--clock', NOW, '--coordinator', redis().url];
      const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', output, '--quiet', ...common]);
      expect(run.code, run.stderr).toBe(0);
      const quota = await runCli(['quota', '--output', output, ...common]);
      expect(quota.code, quota.stderr).toBe(0);
      expect(quota.stdout).toMatch(/shared quota in redis:\/\/127\.0\.0\.1:\d+ \(every process and host on the token\)\n.*\n  demo…\s+[1-9]/);
      expect(quota.stdout).toContain(`no quota files under ${join(output, '.state', 'quota')} (a run through the coordinator writes none: its count is the shared one above; else nothing sent yet`);
    } finally {
      await emulator.close();
    }
  });
});
