/**
 * A Redis coordinator that answers and refuses (a password missing or wrong, a database it does not
 * have): exit 2 naming the setting, the password never shown, and nothing written anywhere, where
 * ioredis alone would have gone on in database 0 or called the server unreachable.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const PASSWORD = 'S3cretPassw0rd';

describe('a coordinator that refuses', () => {
  const redis = useRedisServer();

  it('a database the server does not have, then a password missing, wrong and right', async () => {
    const db99 = `${redis().url}/99`;
    const enqueued = await runCli(['enqueue', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', CLOCK, '--output', tempDir(), '--coordinator', db99]);
    expect(enqueued.code, enqueued.stderr).toBe(2);
    expect(enqueued.stderr).toContain(`quotelake: the coordinator ${db99} refused: it has no database 99 (ERR DB index is out of range)`);
    const admin = new Redis(redis().url);
    try {
      // Database 0 is where ioredis goes on when its SELECT is refused: nothing went there.
      expect(await admin.dbsize()).toBe(0);
      await admin.config('SET', 'requirepass', PASSWORD);
    } finally {
      admin.disconnect();
    }
    const [missing, wrong, runWrong, right] = await Promise.all([
      runCli(['queue', 'status', '--coordinator', redis().url]),
      runCli(['queue', 'status', '--coordinator', redis().url.replace('redis://', 'redis://:wrong-one@')]),
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1h', '--clock', CLOCK, '--output', tempDir(), '--coordinator', redis().url.replace('redis://', 'redis://:wrong-one@')]),
      runCli(['queue', 'status', '--json', '--coordinator', redis().url.replace('redis://', `redis://:${PASSWORD}@`)]),
    ]);
    expect([missing.code, wrong.code, runWrong.code], missing.stderr + wrong.stderr + runWrong.stderr).toEqual([2, 2, 2]);
    expect(missing.stderr).toContain(`the coordinator ${redis().url} refused: it needs a password (NOAUTH`);
    expect(missing.stderr).toContain('hint: give it in the URL: redis://:PASSWORD@HOST:6379');
    const masked = redis().url.replace('redis://', 'redis://:***@');
    for (const r of [wrong, runWrong]) {
      expect(r.stderr).toContain(`the coordinator ${masked} refused: the password (or user) is wrong (WRONGPASS`);
      expect(r.stderr).not.toContain('wrong-one');
    }
    expect(right.code, right.stderr).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ waiting: 0, active: 0 });
    expect(right.stderr + right.stdout).not.toContain(PASSWORD);
  }, 60_000);
});
