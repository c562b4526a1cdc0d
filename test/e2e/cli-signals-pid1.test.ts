/**
 * quotelake as the first process of a container (PID 1, as `command: [node_modules/.bin/quotelake, ...]`
 * in a pod makes it): the kernel drops a signal that PID 1 has no handler for, its own included, so
 * the second signal's "exiting now" (SIGINT sent to itself) did nothing and the run went on.
 * Run in a PID namespace of its own (`unshare`), skipped where the machine allows none.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN, cleanEnv, tempDir } from './helpers/cli.js';

/** Preloaded into the CLI: the stop waits 20 s before its run record, so the second signal meets it under way. */
const HOLD_STOP = fileURLToPath(new URL('../helpers/hold-aborted-run-record.mjs', import.meta.url));

const UNSHARE = ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc'];
const namespaces = spawnSync('unshare', [...UNSHARE, 'true']).status === 0;

/** The pid (outside the namespace) of the one child of `unshare --fork`: PID 1 inside. */
function childOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text === '' ? undefined : Number(text.split(' ')[0]);
  } catch {
    return undefined;
  }
}

describe.skipIf(!namespaces)('signals to quotelake as PID 1', () => {
  it('a second SIGTERM exits at once with 130, as it does anywhere else', async () => {
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--json', '--output', tempDir()];
    const env = cleanEnv({ QUOTELAKE_PROGRESS_INTERVAL_MS: '50', QUOTELAKE_STOP_TIMEOUT: '120', NODE_OPTIONS: `--import=${HOLD_STOP}` });
    const child = spawn('unshare', [...UNSHARE, process.execPath, MAIN, ...args], { env });
    let err = '';
    let stopping: () => void = () => {};
    let progressed: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (stopping = resolve));
    const started = new Promise<void>((resolve) => (progressed = resolve));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (/\d+ requests/.test(err)) progressed();
      if (/holding the aborted run record/.test(err)) stopping();
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    await started;
    const inside = childOf(child.pid!);
    expect(inside, 'the CLI under unshare').toBeDefined();
    process.kill(inside!, 'SIGTERM');
    await stopped;
    process.kill(inside!, 'SIGTERM');
    expect(await code, err).toBe(130);
    expect(err).toContain('quotelake: SIGTERM again: exiting now; the next run resumes from the last commit');
    // Ended there: the stop it had begun (held 20 s, then the --json document) never finished.
    expect(out, err).toBe('');
  }, 60_000);
});
