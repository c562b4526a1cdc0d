/**
 * `--coordinator ''` (a script's `--coordinator "$REDIS_URL"` with the variable unset) is refused
 * before anything is sent or written, as `--token ''` is: run unshared, the process would exceed the
 * plan beside the others on the token with nothing said.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('an empty --coordinator', () => {
  it('is exit 2 naming the flag, for run (also with --json) and the queue commands; nothing is written', async () => {
    const dir = tempDir('ql-coord-empty-');
    const output = join(dir, 'lake');
    const run = await runCli(['run', 'kline-backfill', '--coordinator', '', '--output', output, '--since', '1d', '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ command: 'run', exitCode: 2, error: { message: '--coordinator is empty' } });
    expect(existsSync(output)).toBe(false);

    const quota = await runCli(['quota', '--output', output, '--coordinator', ' ']);
    expect(quota.code).toBe(2);
    expect(quota.stderr).toContain('quotelake: --coordinator is empty\n  hint: give the Redis every process on the token shares');

    // With QUOTELAKE_REDIS_URL set, the empty flag is still refused rather than read as "use the environment".
    const status = await runCli(['queue', 'status', '--coordinator', ''], { env: { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:1' } });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--coordinator is empty');
  });
});
