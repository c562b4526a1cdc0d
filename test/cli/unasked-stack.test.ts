import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/cli/quotelake.js', import.meta.url));

function cli(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stderr: r.stderr };
}

describe('--log-level debug on a command that does not take it', () => {
  it('is a usage error with no stack: the option that asks for one is the one refused', () => {
    for (const args of [['serve', '--log-level', 'debug', '--port', '0'], ['validate', 'p.yaml', '--log-level=debug']]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('quotelake: Unknown argument: log-level');
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toContain('UsageError');
    }
  });

  it('a command that takes --log-level still shows the stack of its usage error when asked', () => {
    const r = cli(['run', '--log-level', 'debug']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('quotelake: name a pipeline to run');
    expect(r.stderr).toMatch(/^\s+at /m);
  });
});
