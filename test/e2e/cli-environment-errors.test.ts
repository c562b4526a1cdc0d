/**
 * Errors of the machine and the network, produced for real through the built CLI: each gets its own
 * code, a message naming the path or address with the fix, and the exit code of the README table,
 * never the "bug" label.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { cleanEnv, MAIN, ROOT, runCli, tempDir } from './helpers/cli.js';
import { quickRetry } from './helpers/quick-retry.js';

const CLOCK = ['--clock', '2026-11-20T00:00:00Z'];
const DEMO = ['run', 'demo', ...CLOCK, '--json'];

interface RunDoc {
  exitCode: number;
  runs: { status: string; requestsTotal: number; error?: { code: string; message: string; hint?: string } }[];
}

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
/**
 * As root, permissions do not stop writes, so the EACCES case runs the CLI as `nobody` (uid 65534).
 * That needs the checkout to be readable by others: a clone inside a 0700 folder (mktemp -d) is
 * not, and then the case cannot be produced for real here.
 */
const AS_NOBODY = { uid: 65534, gid: 65534 };
function nobodyCanRunTheCli(): boolean {
  if (process.getuid?.() !== 0) return true;
  const probe = `require('fs').accessSync(${JSON.stringify(MAIN)}, require('fs').constants.R_OK)`;
  return spawnSync(process.execPath, ['-e', probe], { cwd: '/', ...AS_NOBODY }).status === 0;
}

const portOf = (s: Server) => (s.address() as { port: number }).port;
const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

describe('output folder checked before the run', () => {
  it('under a regular file (ENOTDIR): exit 2, QL_OUTPUT_MISSING, no request sent', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const out = join(dir, 'file', 'out');
    const r = await runCli([...DEMO, '--output', out]);
    expect(r.code, r.stderr).toBe(2);
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.error?.code).toBe('QL_OUTPUT_MISSING');
    expect(run.requestsTotal).toBe(0);
    expect(r.stderr).toContain(`quotelake: output ${out}: ${out}/_quotelake: a part of this path is a file, not a folder (ENOTDIR, mkdir)`);
    expect(r.stderr).toContain('hint: choose an --output (or --state-dir) whose parents are folders, not files');
    expect(r.stderr).not.toMatch(/bug/);
  }, 30_000);

  it.skipIf(process.platform === 'win32')('through a loop of symbolic links (ELOOP): exit 2, QL_OUTPUT_MISSING, no request sent', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    const out = join(dir, 'a');
    const r = await runCli([...DEMO, '--output', out]);
    expect(r.code, r.stderr).toBe(2);
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.error?.code).toBe('QL_OUTPUT_MISSING');
    expect(run.requestsTotal).toBe(0);
    expect(r.stderr).toContain(`quotelake: output ${out}: ${out}/_quotelake: its symbolic links form a loop (ELOOP, mkdir)`);
    expect(r.stderr).not.toMatch(/bug/);
  }, 30_000);

  it.skipIf(!existsSync('/proc/self'))('under /proc: refused at once (it used to loop in mkdir), exit 2', async () => {
    const started = Date.now();
    const r = await runCli([...DEMO, '--output', '/proc/nope']);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_OUTPUT_UNSUPPORTED');
    expect(r.stderr).toContain('quotelake: output /proc/nope: /proc is on proc, a kernel file system, not storage');
  }, 30_000);

  // As root, permissions do not stop writes: the CLI then runs as `nobody` (uid 65534), for real;
  // skipped only where `nobody` cannot read the checkout (see nobodyCanRunTheCli).
  it.skipIf(!nobodyCanRunTheCli())('not writable (EACCES): exit 2, QL_OUTPUT_DENIED naming the folder to fix', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    const out = join(dir, 'out');
    const asNobody = process.getuid?.() === 0 ? AS_NOBODY : {};
    const r = spawnSync(process.execPath, [MAIN, ...DEMO, '--output', out], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', ...asNobody });
    expect(r.status, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_OUTPUT_DENIED');
    expect(r.stderr).toContain(`quotelake: output ${out}: permission denied: cannot mkdir ${out} (EACCES)`);
    expect(r.stderr).toContain(`hint: give this user write access to ${dir}, or choose another --output (or --state-dir)`);
  }, 30_000);
});

/** A tmpfs mounted with `options`, where this process may mount one (root with CAP_SYS_ADMIN); undefined elsewhere. */
function tmpfs(options: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = tempDir('ql-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  return r.status === 0 ? dir : undefined;
}

describe('a full disk', () => {
  const disk = tmpfs('size=300k');
  afterAll(() => {
    if (disk) spawnSync('umount', [disk]);
  });
  // Skipped where no tmpfs can be mounted (not root, or a container without CAP_SYS_ADMIN).
  it.skipIf(disk === undefined)('ENOSPC while writing: exit 1, QL_DISK_FULL naming the file', async () => {
    const r = await runCli(['run', 'kline-backfill', ...CLOCK, '--json', '--output', join(disk!, 'lake'), '--state-dir', tempDir()]);
    expect(r.code, r.stderr).toBe(1);
    const error = (JSON.parse(r.stdout) as RunDoc).runs[0]!.error!;
    expect(error.code).toBe('QL_DISK_FULL');
    expect(error.message).toMatch(new RegExp(`no space left on the device holding ${disk}/lake/_quotelake/staging/\\S+\\.parquet \\(ENOSPC, write\\)$`));
    expect(error.hint).toMatch(/free space there/);
  }, 60_000);
});

describe('a read-only mount', () => {
  const mount = tmpfs('ro,size=64k');
  afterAll(() => {
    if (mount) spawnSync('umount', [mount]);
  });
  // Skipped where no tmpfs can be mounted (not root, or a container without CAP_SYS_ADMIN).
  it.skipIf(mount === undefined)('EROFS: exit 2, QL_OUTPUT_DENIED naming the output', async () => {
    const out = join(mount!, 'lake');
    const r = await runCli([...DEMO, '--output', out]);
    expect(r.code, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_OUTPUT_DENIED');
    expect(r.stderr).toContain(`quotelake: output ${out}:`);
    expect(r.stderr).toContain('EROFS');
  }, 30_000);
});

describe('stdout that refuses writes (> /dev/full: ENOSPC)', () => {
  /** The built CLI with stdout on /dev/full: what a full disk does to `> report.json`. */
  function toFullDevice(args: string[]): { code: number | null; stderr: string } {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', full, 'pipe'], encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, stderr: r.stderr };
    } finally {
      closeSync(full);
    }
  }

  it.skipIf(!existsSync('/dev/full'))('a command whose output was lost exits 1 and says so, instead of 0', () => {
    for (const args of [['schema'], ['list']]) {
      const r = toFullDevice(args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('quotelake: cannot write to stdout (ENOSPC: no space left on device, write): what this command printed is incomplete');
      expect(r.stderr).toContain('hint: stdout goes to a file or device that refused the write');
      expect(r.stderr).not.toMatch(/Unhandled 'error' event|^\s+at /m);
    }
  });

  it.skipIf(!existsSync('/dev/full'))('stderr on it: nothing can be said, but the exit code is still the one of the table', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const bad = join(ROOT, 'test/fixtures/pipelines/bad-yaml.yaml');
      const r = spawnSync(process.execPath, [MAIN, 'validate', bad], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'ignore', full], timeout: 60_000 });
      // A usage error (2), not an uncaught 'error' event of stderr (1).
      expect(r.status).toBe(2);
    } finally {
      closeSync(full);
    }
  });

  it.skipIf(!existsSync('/dev/full'))('NDJSON rows to it: QL_STDOUT_FAILED naming stdout, not the output folder', () => {
    const r = toFullDevice(['run', 'trades-ndjson', ...CLOCK]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('quotelake: ndjson: cannot write trade to stdout: ENOSPC: no space left on device, write');
    expect(r.stderr).not.toContain('under the output');
    // One report of the failure, not a second one at the exit.
    expect(r.stderr).not.toContain('what this command printed is incomplete');
  });
});

describe('network', () => {
  it('serve on a port in use: exit 2, QL_PORT_IN_USE with the address', async () => {
    const holder = await listen();
    try {
      const port = portOf(holder);
      const r = await runCli(['serve', '--port', String(port)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`quotelake: 127.0.0.1:${port} is already in use by another process (EADDRINUSE)`);
      expect(r.stderr).toContain('hint: choose another --port (0 picks a free one)');
    } finally {
      await close(holder);
    }
  }, 30_000);

  it('serve on a host that does not resolve: exit 2, the --host named, not --base-url', async () => {
    const r = await runCli(['serve', '--port', '0', '--host', 'emulator.example.invalid']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^quotelake: --host emulator\.example\.invalid is not known \((ENOTFOUND|EAI_AGAIN): the name does not resolve\)$/m);
    expect(r.stderr).toContain('hint: choose a --host this machine has');
    expect(r.stderr).not.toContain('--base-url');
  }, 30_000);

  it('a closed port as base URL (ECONNREFUSED): exit 1, QL_CONNECTION_REFUSED with the address', async () => {
    const free = await listen();
    const port = portOf(free);
    await close(free);
    // Retried a few milliseconds apart: what fails the run, not how long it waits.
    const r = await runCli(['run', quickRetry('demo'), ...DEMO.slice(2), '--output', tempDir(), '--base-url', `http://127.0.0.1:${port}`, '--token', 'a-token-of-some-length']);
    expect(r.code, r.stderr).toBe(1);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_CONNECTION_REFUSED');
    expect(r.stderr).toContain(`nothing accepts connections at 127.0.0.1:${port} (ECONNREFUSED)`);
  }, 60_000);

  it('https:// for a plain-HTTP service: exit 2, QL_TLS saying it answered without TLS, not to check certificates', async () => {
    const emulator = await startEmulator({ log: () => {} });
    try {
      const port = new URL(emulator.url).port;
      const r = await runCli(['run', quickRetry('demo'), ...DEMO.slice(2), '--output', tempDir(), '--base-url', `https://127.0.0.1:${port}`, '--token', 'a-token-of-some-length']);
      expect(r.code, r.stderr).toBe(2);
      expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_TLS');
      expect(r.stderr).toMatch(new RegExp(`the TLS connection to 127\\.0\\.0\\.1:${port} was refused: the server did not answer in TLS \\(ERR_SSL_[A-Z_]+\\); it may serve plain HTTP`));
      expect(r.stderr).toContain('hint: an https:// URL for a plain-HTTP service: write it with http://');
      expect(r.stderr).not.toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      await emulator.close();
    }
  }, 60_000);

  it('an unresolvable host (.invalid): exit 2, QL_HOST_UNKNOWN naming the host', async () => {
    const r = await runCli(['run', quickRetry('demo'), ...DEMO.slice(2), '--output', tempDir(), '--base-url', 'http://quotes.example.invalid', '--token', 'a-token-of-some-length']);
    expect(r.code, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_HOST_UNKNOWN');
    expect(r.stderr).toContain('host quotes.example.invalid is not known');
  }, 60_000);
});
