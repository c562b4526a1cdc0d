/**
 * A file-size limit (`ulimit -f`, systemd LimitFSIZE) reached while writing, through the built CLI:
 * a full disk to the user (QL_DISK_FULL, exit 1, the summary and the staging cleaned up), never the
 * SIGXFSZ that killed the process silently with exit 153.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFiles, cleanEnv, MAIN, ROOT, tempDir } from './helpers/cli.js';

const CLOCK = ['--clock', '2026-11-20T00:00:00Z'];
const BACKFILL = ['run', 'kline-backfill', ...CLOCK, '--codes', 'BTCUSDT', '--since', '3d'];

/** The built CLI under `ulimit -f <blocks>` (blocks of 512 bytes or 1 KiB, by shell), stdout into `stdoutFile` when given. */
function underFileSizeLimit(blocks: number, args: string[], stdoutFile?: string) {
  const quoted = [process.execPath, MAIN, ...args].map((a) => `'${a}'`).join(' ');
  const script = `ulimit -f ${blocks}; exec ${quoted}${stdoutFile ? ` > '${stdoutFile}'` : ''}`;
  const r = spawnSync('/bin/sh', ['-c', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!existsSync('/bin/sh'))('a file-size limit reached (ulimit -f)', () => {
  it('a Parquet run: exit 1, QL_DISK_FULL naming EFBIG and the limit, no staged file left', () => {
    const out = join(tempDir(), 'lake');
    const r = underFileSizeLimit(20, [...BACKFILL, '--output', out, '--json']);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(1);
    const run = (JSON.parse(r.stdout) as { runs: { status: string; error: { code: string; message: string; hint: string } }[] }).runs[0]!;
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('QL_DISK_FULL');
    expect(run.error.message).toMatch(/\.parquet reached the largest file this process may write \(EFBIG, write: the file-size limit, ulimit -f, or the file system's\)$/);
    expect(run.error.hint).toMatch(/^raise the file-size limit \(ulimit -f; systemd LimitFSIZE\)/);
    expect(allFiles(out).filter((f) => f.includes('/staging/'))).toEqual([]);
  }, 60_000);

  it('a report cut by the limit within one write (schema > file): exit 1 and says so, not exit 0 with a cut file', () => {
    const file = join(tempDir(), 'schema.json');
    const r = underFileSizeLimit(4, ['schema'], file);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('quotelake: cannot write to stdout (EFBIG: file too large, write): what this command printed is incomplete');
    expect(statSync(file).size).toBeLessThanOrEqual(4 * 1024);
  }, 60_000);

  it('NDJSON to a file on stdout: exit 1 with one message about stdout, the file cut at the limit', () => {
    const dir = tempDir();
    const file = join(dir, 'bars.ndjson');
    const r = underFileSizeLimit(20, [...BACKFILL, '--format', 'ndjson', '--output', join(dir, 'out')], file);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('quotelake: ndjson: cannot write kline to stdout: EFBIG: file too large, write');
    expect(r.stderr).toContain('hint: stdout goes to a file or device that refused the write (full, over a file-size limit such as ulimit -f, gone or read-only)');
    // Cut at the limit: what the file holds is what the shell's limit let through, no more.
    expect(statSync(file).size).toBeLessThanOrEqual(20 * 1024);
    expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThan(10);
  }, 60_000);
});
