/**
 * `enqueue --slice-requests` below 1 is said as what it is: 0 and -3 are whole numbers, so "not a
 * whole number of requests" (said of them before) sent the user looking for a typo; 2.5 still is not.
 * Nothing is queued.
 */
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli } from './helpers/cli.js';

describe('enqueue --slice-requests out of range', () => {
  const redis = useRedisServer();

  it.each([
    ['0', '--slice-requests 0: a slice needs at least 1 request'],
    ['-3', '--slice-requests -3: a slice needs at least 1 request'],
    ['2.5', '--slice-requests 2.5: not a whole number of requests'],
  ])('%s is exit 2 with what is wrong', async (value, message) => {
    const r = await runCli(['enqueue', 'kline-backfill', `--slice-requests=${value}`, '--coordinator', redis().url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`quotelake: ${message}\n  hint: give a whole number of 1 or more, e.g. --slice-requests 32\n`);
    const status = await runCli(['queue', 'status', '--json', '--coordinator', redis().url]);
    expect(JSON.parse(status.stdout)).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 0 });
  });
});
