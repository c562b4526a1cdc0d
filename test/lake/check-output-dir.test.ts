import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../src/core/errors.js';
import { checkOutputDir } from '../../src/lake/check-output-dir.js';

const temp = () => mkdtempSync(join(tmpdir(), 'ql-check-output-'));

describe('checkOutputDir', () => {
  it('creates a missing output and leaves nothing else behind', async () => {
    const out = join(temp(), 'new', 'lake');
    await checkOutputDir(out);
    expect(readdirSync(out)).toEqual([]);
  });

  it('keeps an existing _quotelake/ and removes only its probe', async () => {
    const out = temp();
    await checkOutputDir(out);
    await checkOutputDir(out);
    writeFileSync(join(out, 'x'), '');
    expect(readdirSync(out)).toEqual(['x']);
  });

  it('sweeps probes left by a killed process (its pid is gone), not those of a live one', async () => {
    const out = temp();
    await checkOutputDir(out);
    const lake = join(out, '_quotelake');
    mkdirSync(lake, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid ?? 0;
    writeFileSync(join(lake, `.probe-${dead}-84a35778`), '');
    writeFileSync(join(lake, `.probe-${process.pid}-0badf00d`), '');
    await checkOutputDir(out);
    expect(readdirSync(lake)).toEqual([`.probe-${process.pid}-0badf00d`]);
  });

  it('names the path and the fix when a parent is a file (ENOTDIR)', async () => {
    const root = temp();
    writeFileSync(join(root, 'file'), 'x');
    const error = await checkOutputDir(join(root, 'file', 'out')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect(error).toMatchObject({ code: 'QL_OUTPUT_MISSING', stage: 'plan' });
    expect((error as Error).message).toContain(join(root, 'file', 'out'));
    expect((error as EnvironmentError).fix).toMatch(/--output/);
    expect((error as Error).cause).toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(!existsSync('/proc/self'))('refuses a kernel file system (/proc) before trying to write', async () => {
    for (const out of ['/proc/nope', '/proc']) {
      const error = await checkOutputDir(out).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'QL_OUTPUT_UNSUPPORTED' });
      expect((error as Error).message).toBe(`output ${out}: /proc is on proc, a kernel file system, not storage`);
    }
  });
});
