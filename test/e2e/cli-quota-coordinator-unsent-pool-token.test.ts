/**
 * `quota --coordinator` lists every token of the pool, as README promises ("one line per token of
 * the pool … also for a token that has sent nothing yet"): one that has sent nothing through Redis
 * today is a row of the shared table at 0 used, with its plan's limit. Before, it was on no line at
 * all (the shared table lists Redis's counts only, and the local part had no files to show).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';

describe('quota --coordinator of a pool with a token that sent nothing', () => {
  const redis = useRedisServer();

  it('lists that token in the shared table at 0 used, text and --json', async () => {
    await settleTokens(redis().url, ['demo-all-us', 'demo-all-hk']);
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const dir = tempDir('ql-quota-unsent-');
      const pipeline = join(dir, 'us.yaml');
      writeFileSync(pipeline, ['name: us', 'source:', '  type: kline-history', '  codes: [AAPL.US]', '  intervals: [1d]', '  since: 2d', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
      const output = join(dir, 'lake');
      const env = { QUOTELAKE_TOKENS: 'demo-all-us:all-us,demo-all-hk:all-hk' };
      const common = ['--base-url', emulator.url, '--clock', NOW, '--coordinator', redis().url];
      const run = await runCli(['run', pipeline, '--output', output, '--quiet', ...common], { env });
      expect(run.code, run.stderr).toBe(0);
      const quota = await runCli(['quota', '--output', output, ...common], { env });
      expect(quota.code, quota.stderr).toBe(0);
      expect(quota.stdout).toMatch(/\n  demo… \[[0-9a-f]{8}\] \(pool token 1, all-us\)\s+1\s+1,728,000\s+1,727,999\s+1\s+2026-11-13T00:00:00\.000Z \(UTC midnight\)\n/);
      expect(quota.stdout).toMatch(/\n  demo… \[[0-9a-f]{8}\] \(pool token 2, all-hk\)\s+0\s+1,728,000\s+1,728,000\s+0\s+2026-11-13T00:00:00\.000Z \(UTC midnight\)\n/);
      const json = await runCli(['quota', '--output', output, '--json', ...common], { env });
      const tokens = (JSON.parse(json.stdout) as { coordinator: { tokens: { token: string; usedToday: number; limit: number; remaining: number; processes: number }[] } }).coordinator.tokens;
      expect(tokens.map((t) => [t.token.replace(/\[[0-9a-f]{8}\]/, '[…]'), t.usedToday, t.limit, t.remaining, t.processes])).toEqual([
        ['demo… […] (pool token 1, all-us)', 1, 1728000, 1727999, 1],
        ['demo… […] (pool token 2, all-hk)', 0, 1728000, 1728000, 0],
      ]);
    } finally {
      await emulator.close();
    }
  });
});
