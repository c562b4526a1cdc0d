import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/core/atomic-write.js';

describe('writeFileAtomic noClobber', () => {
  it('creates a new file, refuses an existing one with EEXIST and leaves it and no temp file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ql-noclobber-'));
    const path = join(dir, 'p.yaml');
    await writeFileAtomic(path, 'first\n', { noClobber: true });
    expect(readFileSync(path, 'utf8')).toBe('first\n');
    writeFileSync(path, 'edited\n');
    await expect(writeFileAtomic(path, 'second\n', { noClobber: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path, 'utf8')).toBe('edited\n');
    expect(readdirSync(dir)).toEqual(['p.yaml']);
    // Without it, the file is replaced as before.
    await writeFileAtomic(path, 'third\n');
    expect(readFileSync(path, 'utf8')).toBe('third\n');
    expect(readdirSync(dir)).toEqual(['p.yaml']);
  });
});
