/**
 * `rediss://` (TLS) to a Redis that serves plain TCP: the connection gets no answer and times out,
 * which alone reads as "start Redis again" while Redis is up. The hint names the likely mix-up.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const ADVICE = 'a rediss:// (TLS) URL to a Redis that does not serve TLS gets no answer like this: give redis:// if it serves plain TCP';

describe('rediss:// to a Redis without TLS', () => {
  const redis = useRedisServer();

  it('says so in the hint of quota (QL_COORDINATOR_DOWN) and of the queue commands (QL_COORDINATOR_UNREACHABLE)', async () => {
    const url = redis().url.replace('redis://', 'rediss://');
    const quota = await runCli(['quota', '--output', join(tempDir('ql-tls-'), 'lake'), '--coordinator', url]);
    expect(quota.code).toBe(1);
    expect(quota.stderr).toContain(ADVICE);
    const status = await runCli(['queue', 'status', '--json', '--coordinator', url]);
    expect(status.code).toBe(1);
    expect((JSON.parse(status.stdout) as { error: { hint: string } }).error.hint).toContain(ADVICE);
    // A plain URL to a port where nothing listens keeps the plain advice.
    const plain = await runCli(['quota', '--output', join(tempDir('ql-tls-'), 'lake'), '--coordinator', 'redis://127.0.0.1:1']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).not.toContain('rediss://');
  });
});
