/**
 * A coordinator URL with a query (`redis://host:6379/0?db=3`, `?password=…`): ioredis would read it
 * as options behind the path's database (so `/0?db=3` is database 0) and the password would be
 * printed unmasked. It is refused before anything connects, sent or written (exit 2), the URL
 * named with any password masked.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectRedisCoordinator } from '../../src/api/connect-redis-coordinator.js';
import { ConfigError } from '../../src/core/errors.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

describe('a coordinator URL with query parameters', () => {
  const redis = useRedisServer();

  it('is exit 2 for quota, run and queue, naming the URL with the password masked', async () => {
    const output = join(tempDir('ql-coord-query-'), 'lake');
    const withDb = `${redis().url}/0?db=3`;
    const quota = await runCli(['quota', '--output', output, '--token', 'demo-basic', '--coordinator', withDb]);
    expect(quota.code, quota.stdout).toBe(2);
    expect(quota.stdout).toBe('');
    expect(quota.stderr).toContain(`quotelake: --coordinator: query parameters are not taken, got "${withDb}": give the database after the port (redis://host:6379/3)`);

    // A service that answers: the run would otherwise go ahead on the query's terms.
    await settleTokens(redis().url, ['demo-basic']);
    const emulator = await startEmulator({ log: () => {} });
    const withPassword = `${redis().url}/?password=s3cretpw`;
    const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', output, '--token', 'demo-basic', '--base-url', emulator.url, '--json'], {
      env: { QUOTELAKE_REDIS_URL: withPassword },
    }).finally(() => emulator.close());
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      command: 'run',
      exitCode: 2,
      error: { message: expect.stringContaining(`QUOTELAKE_REDIS_URL: query parameters are not taken, got "${redis().url}/?password=***"`) },
    });
    expect(run.stdout + run.stderr).not.toContain('s3cretpw');
    expect(existsSync(output)).toBe(false);

    const status = await runCli(['queue', 'status', '--coordinator', `redis://:s3cretpw@127.0.0.1:${redis().port}?db=2`]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain(`got "redis://:***@127.0.0.1:${redis().port}?db=2"`);
    expect(status.stdout + status.stderr).not.toContain('s3cretpw');
  });

  it('is a ConfigError from connectRedisCoordinator, password masked', async () => {
    const attempt = connectRedisCoordinator(`${redis().url}/1?password=s3cretpw`);
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toMatchObject({ message: `coordinator: query parameters are not taken, got "${redis().url}/1?password=***": give the database after the port (redis://host:6379/3) and a password before the host (redis://:PASSWORD@host:6379)` });
  });
});
