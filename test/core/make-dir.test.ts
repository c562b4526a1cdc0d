import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDir } from '../../src/core/make-dir.js';

const temp = () => mkdtempSync(join(tmpdir(), 'ql-makedir-'));

describe('makeDir', () => {
  it('creates every missing level, and accepts a folder that exists', async () => {
    const root = temp();
    const deep = join(root, 'a', 'b', 'c');
    await makeDir(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await expect(makeDir(deep)).resolves.toBeUndefined();
    await expect(makeDir(root)).resolves.toBeUndefined();
  });

  it('refuses a path through a file with ENOTDIR, naming it', async () => {
    const root = temp();
    writeFileSync(join(root, 'file'), 'x');
    await expect(makeDir(join(root, 'file', 'out'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(makeDir(join(root, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR', path: join(root, 'file') });
  });

  // Node 20's mkdir({ recursive: true }) never returns here (ENOENT with the parent present, retried forever).
  it.skipIf(!existsSync('/proc/self'))('fails at once under /proc instead of looping', async () => {
    const started = Date.now();
    await expect(makeDir('/proc/nope/deeper')).rejects.toMatchObject({ code: 'ENOENT', syscall: 'mkdir' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
