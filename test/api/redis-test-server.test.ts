import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { launch, useRedisServer } from '../helpers/redis-server.js';

describe('the tests’ Redis server', () => {
  const server = useRedisServer();

  it('answers on loopback, keeps nothing across a restart, and is stopped by PID', async () => {
    const redis = new Redis(server().url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect();
    await redis.set('k', 'v');
    expect(await redis.get('k')).toBe('v');
    expect(await redis.config('GET', 'save')).toEqual(['save', '']);
    const before = server().pid();
    await server().restart();
    expect(server().pid()).not.toBe(before);
    // A new connection reads the new server: the first one's reconnection may still be failing on
    // the old server's death (two failed attempts reject what waits with maxRetriesPerRequest 1).
    redis.disconnect();
    const after = new Redis(server().url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await after.connect();
    expect(await after.get('k')).toBeNull();
    after.disconnect();
  });

  it('a port another process took is refused in words the start-up retries on (another port)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-redis-'));
    try {
      await expect(launch(server().port, dir)).rejects.toThrow(/address already in use/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
