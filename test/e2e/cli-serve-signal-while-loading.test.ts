/**
 * A SIGTERM or SIGINT that comes while `serve` is still loading, before its own handlers: the
 * clean stop README promises (exit 0, nothing more on stderr), not a death by the signal (a
 * shell's 143) that a harness stopping its emulator at once reads as a crash.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCli } from './helpers/cli.js';

const LISTENING = fileURLToPath(new URL('../helpers/say-when-signal-handled.mjs', import.meta.url));

describe('a signal while serve loads', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: exit 0, nothing said, nothing listening', async (sig) => {
    const proc = startCli(['serve', '--port', '0'], { env: { NODE_OPTIONS: `--import=${LISTENING}` } });
    await proc.waitForStderr(/^listening for SIGTERM\n/);
    proc.child.kill(sig);
    const result = await proc.result;
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('listening for SIGTERM\n');
    expect(result.stdout).toBe('');
  }, 60_000);
});
