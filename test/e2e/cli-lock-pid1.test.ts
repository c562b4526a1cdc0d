/**
 * quotelake as the first process of a container (PID 1) that is killed outright (OOM) leaves its
 * output lock naming pid 1 on its host name; a restarted container (Docker's restart policy, a pod's
 * `restartPolicy: OnFailure`) keeps that host name and runs quotelake as PID 1 again. Its own pid is
 * no proof that the holder lives: the lock is a dead run's and is taken over, instead of every later
 * run failing with exit 1 on "pid 1", which is itself.
 * Run in a PID namespace of its own (`unshare`), skipped where the machine allows none.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, cleanEnv, tempDir } from './helpers/cli.js';

const UNSHARE = ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc'];
const namespaces = spawnSync('unshare', [...UNSHARE, 'true']).status === 0;

describe.skipIf(!namespaces)('the output lock of quotelake as PID 1', () => {
  it('a lock left by a killed PID 1 on the same host name is taken over by the next PID 1', () => {
    const output = join(tempDir(), 'lake');
    mkdirSync(output);
    const lock = join(output, '.quotelake.lock');
    writeFileSync(lock, JSON.stringify({ pid: 1, host: hostname(), runId: '20261119T230000Z-killed', pipeline: 'kline-backfill', startedAt: '2026-11-19T23:00:00.000Z' }));
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--clock', '2026-11-20T00:00:00Z', '--quiet', '--output', output];
    const r = spawnSync('unshare', [...UNSHARE, process.execPath, MAIN, ...args], { env: cleanEnv({}), encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toContain('QL_OUTPUT_LOCKED');
    expect(r.stderr).not.toContain('is in use by run');
    expect(r.status, r.stderr).toBe(0);
    // Taken over, then released by the run at its end.
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(output, 'kline'))).toBe(true);
  }, 60_000);
});
