/**
 * An ACL user that may PING (so the start-up check passes) but not run the shared limiter's
 * scripts: every admission is refused with NOPERM, the same way each time. That is a setting to fix
 * (exit 2, QL_COORDINATOR_REFUSED, as README's exit-code table says of NOPERM), not a Redis that is
 * down (exit 1 with "start Redis again"). Nothing is sent to the service.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';

describe('a coordinator user without the scripts\' rights', () => {
  const redis = useRedisServer();

  it('is exit 2 QL_COORDINATOR_REFUSED naming NOPERM, with the password masked and nothing sent', async () => {
    const admin = new Redis(redis().url);
    try {
      await admin.call('ACL', 'SETUSER', 'reader', 'on', '>readerpw', '~*', '&*', '+@read', '+ping', '+select', '+info', '+time', '+client', '+hello');
    } finally {
      admin.disconnect();
    }
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const url = redis().url.replace('redis://', 'redis://reader:readerpw@');
      const r = await runCli(['run', 'kline-backfill', '--base-url', emulator.url, '--token', 'demo-professional', '--clock', NOW, '--since', '1d', '--output', join(tempDir('ql-noperm-'), 'lake'), '--coordinator', url, '--json', '--quiet']);
      expect(r.code, r.stderr).toBe(2);
      const run = (JSON.parse(r.stdout) as { runs: { exitCode: number; requestsTotal: number; error: { code: string; message: string } }[] }).runs[0]!;
      expect(run).toMatchObject({ exitCode: 2, requestsTotal: 0, error: { code: 'QL_COORDINATOR_REFUSED' } });
      expect(run.error.message).toMatch(/^the coordinator redis:\/\/reader:\*\*\*@127\.0\.0\.1:\d+ refused: the user may not run what the queue and the shared limiter need \(NOPERM/);
      expect(r.stderr).not.toContain('start Redis again');
      expect(r.stdout + r.stderr).not.toContain('readerpw');
    } finally {
      await emulator.close();
    }
  });
});
