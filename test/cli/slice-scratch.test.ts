/** Slice folders of workers killed with kill -9 are removed by the next worker; a live worker's stay. */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSliceScratch, removeDeadSliceScratch } from '../../src/cli/queue/slice-scratch.js';

describe('slice scratch folders', () => {
  it('carry the worker pid; only those of processes no longer running are removed', async () => {
    const base = await mkdtemp(join(tmpdir(), 'ql-slice-scratch-'));
    const mine = await makeSliceScratch(base);
    expect(mine).toMatch(new RegExp(`quotelake-slice-${process.pid}-`));
    // A process that ran and ended: its pid is free (a reuse in between would only keep the folder).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await mkdir(join(base, `quotelake-slice-${gone}-abc123`, '.state'), { recursive: true });
    await mkdir(join(base, `quotelake-slice-${process.ppid}-def456`));
    await mkdir(join(base, 'quotelake-other'));
    expect(await removeDeadSliceScratch(base)).toBe(1);
    expect((await readdir(base)).sort()).toEqual(['quotelake-other', `quotelake-slice-${process.ppid}-def456`, mine.split('/').at(-1)].sort());
  });
});
