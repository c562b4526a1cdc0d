/**
 * `state show|reset --state-dir` naming a folder that is not there (a typo) says so, rather than
 * "no pipeline has committed into <output> yet" of an output that holds data; a file there is
 * refused (exit 2) like an `--output` file, not read as a state folder without checkpoints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('state --state-dir', () => {
  it('a missing folder is named as missing; a file is exit 2', async () => {
    const dir = tempDir('ql-state-dir-flag-');
    const out = join(dir, 'out');
    mkdirSync(join(out, '.state', 'checkpoints'), { recursive: true });
    const file = join(dir, 'state.txt');
    writeFileSync(file, 'not a folder\n');
    const missing = join(dir, 'stat');
    const [show, showFile, resetFile] = await Promise.all([
      runCli(['state', 'show', '--output', out, '--state-dir', missing]),
      runCli(['state', 'show', '--output', out, '--state-dir', file]),
      runCli(['state', 'reset', '--output', out, '--state-dir', file, '--yes']),
    ]);
    expect([show.code, show.stdout]).toEqual([0, `quotelake: no checkpoints under ${missing}: that folder does not exist (no run has kept its state there; check --state-dir)\n`]);
    for (const r of [showFile, resetFile]) {
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `quotelake: --state-dir ${file} is a file, not a state folder\n  hint: give the --state-dir of the runs (default <output>/.state)\n`]);
    }
  }, 30_000);
});
