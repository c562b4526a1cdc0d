import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';

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
    expect(await redis.get('k')).toBeNull();
    redis.disconnect();
  });
});
