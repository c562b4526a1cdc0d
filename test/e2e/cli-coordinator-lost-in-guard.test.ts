/**
 * A run held by a fresh Redis's restart guard (about a minute before the first request) whose
 * Redis then goes away: it fails as QL_COORDINATOR_DOWN (exit 1) within the usual retries of a
 * lost coordinator (the run's --coordinator-patience, 1 s here), not once the whole hold has been
 * waited out; nothing is sent meanwhile.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { startCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';

describe('the coordinator lost during the restart guard', () => {
  // Not settled: a fresh server, so the run is held for about a minute.
  const redis = useRedisServer();

  it('fails with QL_COORDINATOR_DOWN soon after Redis goes, not when the hold ends', async () => {
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const output = join(tempDir('ql-guard-lost-'), 'lake');
      const run = startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', output, '--quiet', '--json',
        '--base-url', emulator.url, '--token', 'demo-professional', '--clock', NOW, '--coordinator', redis().url, '--coordinator-patience', '1']);
      const guard = await run.waitForStderr(/"event":"coordinator-guard","until":"[^"]+","waitMs":(\d+)/);
      expect(Number(guard[1])).toBeGreaterThan(30_000);
      const lostAt = Date.now();
      await redis().kill();
      const result = await run.result;
      const tookMs = Date.now() - lostAt;
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ command: 'run', exitCode: 1, runs: [{ status: 'failed', requestsTotal: 0, error: { code: 'QL_COORDINATOR_DOWN' } }] });
      // The patience for a lost coordinator (1 s here, 15 s by default), far from the rest of the hold.
      expect(tookMs).toBeLessThan(Number(guard[1]) / 2);
      // Fail closed: the service never saw a request.
      expect(emulator.usage('demo-professional')).toBeUndefined();
    } finally {
      await emulator.close();
    }
  }, 90_000);
});
