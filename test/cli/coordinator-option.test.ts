import { describe, expect, it } from 'vitest';
import { coordinatorUrlOf } from '../../src/cli/coordinator.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('--coordinator / QUOTELAKE_REDIS_URL', () => {
  it('is off unless given; the flag wins over the environment', () => {
    expect(coordinatorUrlOf({}, {})).toBeUndefined();
    expect(coordinatorUrlOf({}, { QUOTELAKE_REDIS_URL: ' ' })).toBeUndefined();
    expect(coordinatorUrlOf({}, { QUOTELAKE_REDIS_URL: 'redis://10.0.0.5:6379/2' })).toBe('redis://10.0.0.5:6379/2');
    expect(coordinatorUrlOf({ coordinator: 'redis://127.0.0.1:6380' }, { QUOTELAKE_REDIS_URL: 'redis://10.0.0.5:6379' })).toBe('redis://127.0.0.1:6380');
    expect(coordinatorUrlOf({ coordinator: 'rediss://cache.example:6380/0' }, {})).toBe('rediss://cache.example:6380/0');
  });

  it('refuses what is not a redis URL as a usage error (exit 2), never echoing a password', () => {
    expect(() => coordinatorUrlOf({ coordinator: 'localhost:6379' }, {})).toThrow(UsageError);
    expect(() => coordinatorUrlOf({ coordinator: 'http://127.0.0.1:6379' }, {})).toThrow('--coordinator must be a redis:// (or rediss://) URL');
    expect(() => coordinatorUrlOf({}, { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:6379/cache' })).toThrow('QUOTELAKE_REDIS_URL: the database after the port must be a number');
    let message = '';
    try {
      coordinatorUrlOf({ coordinator: 'nope://:s3cret@host' }, {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toContain('s3cret');
  });
});
