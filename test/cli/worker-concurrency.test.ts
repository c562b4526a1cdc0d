/** `worker --concurrency`: a whole number from 1 to 64, refused before any connection is made. */
import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENCY, workerHandler } from '../../src/cli/actions/worker.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('worker --concurrency', () => {
  it('refuses 0, a fraction and more than 64 with the range and why', async () => {
    expect(MAX_CONCURRENCY).toBe(64);
    for (const concurrency of [0, 1.5, 65, 1_000_000]) {
      const error = await workerHandler({ concurrency } as never, {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, String(concurrency)).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(`--concurrency must be a whole number from 1 to 64, not ${concurrency}`);
      expect((error as UsageError).hint).toBe('the plan paces every request anyway: a few slices side by side keep it busy (default 4)');
    }
  });
});
