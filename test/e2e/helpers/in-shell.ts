/**
 * A real shell (bash, zsh, fish) with the built quotelake on its PATH, for the completion tests:
 * what it prints for `args`, run in a fresh folder holding `files`; null when that shell is not
 * installed (CI installs them, .ci/run; the words themselves are tested without a shell).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAIN, tempDir } from './cli.js';

export function inShell(shell: string, args: string[], files: string[] = []): string | null {
  const dir = tempDir('ql-shell-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'quotelake'), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(join(bin, 'quotelake'), 0o755);
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  for (const f of files) writeFileSync(join(cwd, f), '');
  try {
    return execFileSync(shell, args, { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
