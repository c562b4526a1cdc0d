/**
 * The coordinator's URL as messages print it: the password masked as every other URL's is
 * (core/redact.ts), the user and the rest kept so the message still says which Redis.
 */
import { describe, expect, it } from 'vitest';
import { RedisLink } from '../../../src/api/redis/redis-link.js';
import { CoordinatorDownError } from '../../../src/core/errors.js';
import { closedPort } from '../../helpers/closed-port.js';

describe('RedisLink target', () => {
  it('a Redis that is not there: the error names it with the password masked', async () => {
    const port = await closedPort();
    const link = new RedisLink(`redis://me:hunter2@127.0.0.1:${port}/3`, { commandTimeoutMs: 300 });
    try {
      expect(link.target).toBe(`redis://me:***@127.0.0.1:${port}/3`);
      const error = await link.open().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CoordinatorDownError);
      expect((error as CoordinatorDownError).message).toContain(`coordinator redis://me:***@127.0.0.1:${port}/3 is unreachable`);
      expect((error as CoordinatorDownError).message).not.toContain('hunter2');
    } finally {
      await link.close();
    }
  });
});
