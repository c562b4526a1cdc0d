/**
 * `node bench/run.mjs <prefix>`: a name that matches no benchmark is refused (exit 2, the names
 * listed) before anything runs, and bench/results/latest.json keeps the figures of the last run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../../bench/run.mjs', import.meta.url));
const LATEST = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url));

/** The file's content and modification time, or undefined when there is none. */
const snapshot = () => (existsSync(LATEST) ? { text: readFileSync(LATEST, 'utf8'), mtimeMs: statSync(LATEST).mtimeMs } : undefined);

describe('bench/run.mjs names', () => {
  it('a typo runs nothing, exits 2 naming the benchmarks, and writes no results', () => {
    const before = snapshot();
    const r = spawnSync(process.execPath, [RUN, 'sinc'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`bench: no benchmark's file name starts with "sinc"; the benchmarks: backfill, client,`);
    expect(r.stdout).toBe('');
    expect(snapshot()).toEqual(before);
  });
});
