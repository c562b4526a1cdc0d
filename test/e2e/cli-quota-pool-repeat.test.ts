/**
 * `quota` refuses a pool that lists a token twice, as `run`, `plan` and `worker` do. Before, it
 * showed one line for the token, labelled by whichever entry came last (its plan too), and exit 0.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('quota with a token listed twice in the pool', () => {
  it('is exit 2 naming the entry by position, never the token', async () => {
    const token = 'pool-repeat-secret';
    const r = await runCli(['quota', '--output', tempDir()], { env: { QUOTELAKE_TOKENS: `other-token:professional,${token}:all-us,${token}:all-hk` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('quotelake: QUOTELAKE_TOKENS: entry 3 of 3 repeats an earlier token');
    expect(r.stderr).toContain('hint: list each token once: one token has one set of limits');
    expect(r.stdout).toBe('');
    expect(r.stdout + r.stderr).not.toContain(token);
  });
});
