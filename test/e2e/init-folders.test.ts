/**
 * `quotelake init` into a folder it cannot use: each refusal is exit 2 and names --dir (init's own
 * option, not a run's --output), the folder to fix rather than the temp file written beside the
 * pipeline, and nothing is written anywhere else.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, runCli, tempDir } from './helpers/cli.js';

/** As root, permissions do not stop writes: the EACCES case runs the CLI as `nobody`, where it can read the checkout. */
const AS_NOBODY = { uid: 65534, gid: 65534 };
function nobodyCanRunTheCli(): boolean {
  if (process.getuid?.() !== 0) return true;
  const probe = `require('fs').accessSync(${JSON.stringify(MAIN)}, require('fs').constants.R_OK)`;
  return spawnSync(process.execPath, ['-e', probe], { cwd: '/', ...AS_NOBODY }).status === 0;
}

describe('quotelake init into a folder it cannot use', () => {
  it('a --dir under a file: exit 2, the hint names --dir', async () => {
    const dir = tempDir('ql-init-');
    writeFileSync(join(dir, 'afile'), 'x');
    const r = await runCli(['init', 'a', '--dir', 'afile/sub'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('a part of this path is a file, not a folder (ENOTDIR, mkdir)');
    expect(r.stderr).toContain('hint: choose a --dir whose parents are folders, not files');
    expect(r.stderr).not.toContain('--output');
  });

  it('a folder where the file would go: exit 2 with or without --force, no --force hint, the folder kept', async () => {
    const dir = tempDir('ql-init-');
    mkdirSync(join(dir, 'pipelines', 'x.yaml', 'inner'), { recursive: true });
    for (const args of [['init', 'x'], ['init', 'x', '--force']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('quotelake: pipelines/x.yaml is a folder; init writes a pipeline file of that name');
      expect(r.stderr).not.toContain('pass --force');
      expect(r.stderr).not.toContain('EISDIR');
    }
    expect(readdirSync(join(dir, 'pipelines', 'x.yaml'))).toEqual(['inner']);
  });

  it('an empty --dir (an unset variable) is exit 2, never the current folder', async () => {
    const dir = tempDir('ql-init-');
    const r = await runCli(['init', 'a', '--dir', ''], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('quotelake: --dir is empty: name the folder to write the pipeline into');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(!nobodyCanRunTheCli())('a folder this user may not write (EACCES): the hint names the folder and --dir, not a temp file', () => {
    const dir = tempDir('ql-init-');
    chmodSync(dir, 0o777);
    const ro = join(dir, 'ro');
    mkdirSync(ro, { mode: 0o555 });
    chmodSync(ro, 0o555);
    const asNobody = process.getuid?.() === 0 ? AS_NOBODY : {};
    const r = spawnSync(process.execPath, [MAIN, 'init', 'a', '--dir', ro], { cwd: dir, encoding: 'utf8', ...asNobody });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: permission denied: cannot write a file in ${ro} (EACCES, open)`);
    expect(r.stderr).toContain(`hint: give this user write access to ${ro}, or choose another --dir`);
    expect(r.stderr).not.toContain('.tmp-');
    expect(readdirSync(ro)).toEqual([]);
  });
});
