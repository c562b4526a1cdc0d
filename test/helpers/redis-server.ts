/**
 * A real Redis for tests: Debian's `redis-server` (installed by .ci/run) on 127.0.0.1, a free port,
 * persistence off, its own temp folder, stopped by PID. `restart()` stops it and starts a fresh,
 * empty one on the same port: what a Redis that lost its memory looks like to clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { tokenKeys } from '../../src/api/redis/redis-keys.js';
import { closedPort } from './closed-port.js';

export interface RedisTestServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  readonly pid: () => number;
  /** Kill (SIGKILL) and start a server on the same port: empty, or (persistent) with all it held. */
  restart(): Promise<void>;
  /** Kill without restarting (a lost Redis). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function launch(port: number, dir: string, persistent = false): Promise<ChildProcess> {
  // Persistent: every write in the append-only file before it is answered, so a kill loses nothing.
  const aof = persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...aof, '--dir', dir, '--protected-mode', 'no'];
  // Redis keeps the machine's time: a date check under libfaketime (which Redis cannot run under)
  // moves quotelake's clock, not the coordinator's.
  const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...env } = process.env;
  const child = spawn('redis-server', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const said: string[] = [];
  // 'close' comes once its output is read too, so the error can say what Redis said.
  const exited = once(child, 'close').then(([code]) => {
    throw new Error(`redis-server exited (${String(code)}) before it was ready; is it installed (apt-get install redis-server)?\n${said.slice(-5).join('\n')}`);
  });
  const spawnFailed = once(child, 'error').then(([error]) => {
    throw new Error(`redis-server could not start (${(error as Error).message}); install it with apt-get install redis-server`);
  });
  const ready = (async () => {
    for await (const line of lines) {
      if (line.includes('Ready to accept connections')) return;
      said.push(line);
    }
    throw new Error(`redis-server closed its output before it was ready:\n${said.slice(-5).join('\n')}`);
  })();
  await Promise.race([ready, exited, spawnFailed]);
  lines.close();
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Ports tried before giving up: a free port may be taken by another test before Redis binds it. */
const PORT_TRIES = 3;

/** Redis on a port found free, again on another one when that port was taken before Redis bound it. */
async function launchOnFreePort(dir: string, persistent: boolean): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    // Below the ephemeral range: no server of another test (on port 0) can take it, also across a restart().
    const port = await closedPort();
    try {
      return { port, child: await launch(port, dir, persistent) };
    } catch (error) {
      if (attempt === PORT_TRIES || !/address already in use/i.test((error as Error).message)) throw error;
    }
  }
}

/** `persistent`: a restart keeps what it held (a systemd restart of a Redis with appendonly). */
export async function startRedisServer(options: { persistent?: boolean } = {}): Promise<RedisTestServer> {
  const persistent = options.persistent ?? false;
  const dir = await mkdtemp(join(tmpdir(), 'ql-redis-'));
  const started = await launchOnFreePort(dir, persistent);
  const port = started.port;
  let child = started.child;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => child.pid!,
    async restart() {
      await killed(child);
      child = await launch(port, dir, persistent);
    },
    async kill() {
      await killed(child);
    },
    async stop() {
      await killed(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Mark `tokens` as coordinated on this server for long: the shared limiter's restart guard (see
 * src/api/redis/redis-scripts.ts) then does not hold a fresh server's windows for its first minute,
 * which is what a first run on a long-running Redis meets.
 */
export async function settleTokens(url: string, tokens: readonly string[]): Promise<void> {
  const redis = new Redis(url);
  try {
    for (const token of tokens) await redis.set(tokenKeys(tokenHash16(token)).epoch, '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * One server for the enclosing suite (started before its first test, stopped after its last);
 * `settled`: tokens whose restart guard is lifted (settleTokens) once it has started.
 */
export function useRedisServer(options: { settled?: readonly string[] } = {}): () => RedisTestServer {
  let server: RedisTestServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    if (options.settled) await settleTokens(server.url, options.settled);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => server!;
}

/**
 * Two connections to the suite's server (as two processes would hold), opened before its first
 * test and closed after its last; call after useRedisServer in the same describe.
 */
export function useTwoConnections(server: () => RedisTestServer): () => readonly [Redis, Redis] {
  let pair: [Redis, Redis] | undefined;
  beforeAll(() => {
    pair = [new Redis(server().url), new Redis(server().url)];
  });
  afterAll(() => {
    for (const connection of pair ?? []) connection.disconnect();
  });
  return () => pair!;
}
