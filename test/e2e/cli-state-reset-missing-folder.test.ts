/**
 * `state reset` given an --output or --state-dir that does not exist (a typo in a script), through
 * the built CLI: still nothing to reset (exit 0, nothing made), but it says the folder is missing,
 * as `state show` does, rather than read as a state that holds nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('state reset on a folder that does not exist', () => {
  it('names the missing --output', async () => {
    const missing = join(tempDir(), 'lake-typo');
    const r = await runCli(['state', 'reset', '--output', missing, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`quotelake: nothing to reset: no checkpoint under ${missing}/.state: ${missing} does not exist (no run has written there; check --output)\n`);
    expect(existsSync(missing)).toBe(false);
  });

  it('names the missing --state-dir, also with --stream', async () => {
    const output = tempDir();
    const missing = join(output, 'state-typo');
    const r = await runCli(['state', 'reset', '--output', output, '--state-dir', missing, '--stream', 'BTC*', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`quotelake: nothing to reset: no checkpoint matching BTC* under ${missing}: that folder does not exist (no run has kept its state there; check --state-dir)\n`);
    expect(existsSync(missing)).toBe(false);
  });
});
