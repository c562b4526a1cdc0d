/**
 * `quotelake quota --state-dir` mistyped: a file there is refused (exit 2, as `state show` refuses
 * it), and a folder that is not there is said to be missing, instead of only "no quota files ...
 * nothing sent yet" with exit 0, which reads as a fresh day.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T10:00:00Z';

describe('quota --state-dir that cannot be the runs\' state dir', () => {
  it('a file: exit 2 naming it', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{}\n');
    const r = await runCli(['quota', '--state-dir', file, '--clock', NOW]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`quotelake: --state-dir ${file} is a file, not a state folder`);
    expect(r.stdout).toBe('');
  });

  it('a folder that is not there: said so, beside "no quota files"', async () => {
    const missing = join(tempDir(), 'no-such-state');
    const r = await runCli(['quota', '--state-dir', missing, '--clock', NOW]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`quotelake: no quota files under ${join(missing, 'quota')} (`);
    expect(r.stdout).toContain(`; ${missing} does not exist: check --state-dir)`);
  });
});
