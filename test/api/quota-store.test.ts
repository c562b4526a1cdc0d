import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { spawn, spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { QuotaExhaustedError } from '../../src/core/errors.js';
import { lockFs } from '../../src/api/lock-fs.js';
import { QuotaStore, tokenHash16 } from '../../src/api/quota-store.js';

const TOKEN = 'quota-token-abcdef';
let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'ql-quota-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

/** Two stores with different block sizes drain one file's limit of 101 at once. */
async function drainTwoStores(clock: ManualClock): Promise<{ a: number; b: number }> {
  const a = new QuotaStore({ stateDir, token: TOKEN, limit: 101, clock, blockSize: 7 });
  const b = new QuotaStore({ stateDir, token: TOKEN, limit: 101, clock, blockSize: 3 });
  const taken = { a: 0, b: 0 };
  const drain = async (store: QuotaStore, key: 'a' | 'b') => {
    for (;;) {
      try {
        await store.take();
        taken[key]++;
      } catch (error) {
        if (error instanceof QuotaExhaustedError) return;
        throw error;
      }
    }
  };
  // Each store first reserves a block of its own (so both really share the file, whatever the
  // lock's timing under load), then both drain at once.
  await a.take();
  taken.a++;
  await b.take();
  taken.b++;
  await Promise.all([drain(a, 'a'), drain(b, 'b')]);
  return taken;
}

describe('QuotaStore', () => {
  it('stops at the limit with the next UTC midnight, and resumes after it', async () => {
    const clock = new ManualClock('2026-01-05T23:00:00Z');
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 3, clock });
    for (let i = 0; i < 3; i++) await store.take();
    const error = await store.take().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-01-06T00:00:00.000Z');
    expect(error).toMatchObject({ used: 3, limit: 3 });
    clock.set('2026-01-06T00:00:00Z');
    await store.take();
    expect(await store.status()).toMatchObject({ used: 1, remaining: 2, day: '2026-01-06' });
  });

  it('resets at midnight of quotaTimeZone', async () => {
    const clock = new ManualClock('2026-07-01T15:00:00Z'); // 23:00 in Shanghai
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 1, clock, timeZone: 'Asia/Shanghai' });
    await store.take();
    const error = (await store.take().catch((e: unknown) => e)) as QuotaExhaustedError;
    expect(error.resetAt.toISOString()).toBe('2026-07-01T16:00:00.000Z');
    clock.set('2026-07-01T16:00:00Z');
    await expect(store.take()).resolves.toBeUndefined();
  });

  it('two stores on one file never exceed the limit together, blocks included', async () => {
    const taken = await drainTwoStores(new ManualClock('2026-01-05T12:00:00Z'));
    expect(taken.a + taken.b).toBe(101);
    expect(taken.a).toBeGreaterThan(0);
    expect(taken.b).toBeGreaterThan(0);
  });

  it("shares the file as well when the process's clock is days off the file system's", async () => {
    // The lock's staleness is judged by its mtime against Date.now(): a lock stamped by the file
    // system's clock looked five days stale here, and the other store took it while it was held.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5 * 86_400_000 });
    try {
      const taken = await drainTwoStores(new ManualClock('2026-01-05T12:00:00Z'));
      expect(taken.a + taken.b).toBe(101);
    } finally {
      vi.useRealTimers();
    }
    expect(await readdir(join(stateDir, 'quota'))).toEqual([`${tokenHash16(TOKEN)}.json`]);
  });

  it('sweeps the lock file a maker killed before linking it left, once old; a young one may be in the making', async () => {
    const quotaDir = join(stateDir, 'quota');
    await mkdir(quotaDir, { recursive: true });
    const lockName = `${tokenHash16(TOKEN)}.json.lock`;
    const old = `${lockName}.4242-deadbeef.making`;
    const young = `${lockName}.4243-cafebabe.making`;
    const otherToken = `${tokenHash16('another-token')}.json.lock.4244-0badf00d.making`;
    for (const name of [old, young, otherToken]) await writeFile(join(quotaDir, name), '');
    // Stamped by the maker's clock, as a maker does the moment it has made it.
    const now = new Date();
    await utimes(join(quotaDir, young), now, now);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(quotaDir, old), hourAgo, hourAgo);
    await utimes(join(quotaDir, otherToken), hourAgo, hourAgo);
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 5, clock: new ManualClock('2026-01-05T12:00:00Z') });
    await store.take();
    await store.close();
    expect((await readdir(quotaDir)).sort()).toEqual([otherToken, `${tokenHash16(TOKEN)}.json`, young].sort());
  });

  it("takes a lock at once whose maker on this host has died, however young its time; a live maker's new lock is not removed", async () => {
    const quotaDir = join(stateDir, 'quota');
    await mkdir(quotaDir, { recursive: true });
    const lock = join(quotaDir, `${tokenHash16(TOKEN)}.json.lock`);
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    await writeFile(lock, `${JSON.stringify({ pid: dead, host: hostname() })}\n`);
    // Stamped a minute ahead: by its time alone it would not be stale before take() gave up.
    const ahead = new Date(Date.now() + 60_000);
    await utimes(lock, ahead, ahead);
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 5, clock: new ManualClock('2026-01-05T12:00:00Z') });
    await store.take();
    await store.close();
    expect(await readdir(quotaDir)).toEqual([`${tokenHash16(TOKEN)}.json`]);

    // Two waiters saw one dead maker: the first made its own lock, which the second must not remove.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
    try {
      await writeFile(lock, `${JSON.stringify({ pid: live.pid, host: hostname() })}\n`);
      // Stamped by its maker's clock, as a maker does.
      const now = new Date();
      await utimes(lock, now, now);
      const removed = await new Promise<NodeJS.ErrnoException | null>((done) => lockFs.rmdir(lock, done));
      expect(removed?.code).toBe('ELOCKED');
      expect(await readFile(lock, 'utf8')).toContain(`"pid":${live.pid}`);
    } finally {
      live.kill();
    }
  });

  it('takes over a stale lock folder an earlier version left', async () => {
    const quotaDir = join(stateDir, 'quota');
    const lock = join(quotaDir, `${tokenHash16(TOKEN)}.json.lock`);
    await mkdir(lock, { recursive: true });
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 5, clock: new ManualClock('2026-01-05T12:00:00Z') });
    await store.take();
    await store.close();
    expect(await readdir(quotaDir)).toEqual([`${tokenHash16(TOKEN)}.json`]);
    expect(JSON.parse(await readFile(join(quotaDir, `${tokenHash16(TOKEN)}.json`), 'utf8'))).toMatchObject({ used: 1 });
  });

  it('close() gives the unused block back; refund() returns a request the server did not count', async () => {
    const clock = new ManualClock('2026-01-05T12:00:00Z');
    const a = new QuotaStore({ stateDir, token: TOKEN, limit: 100, clock, blockSize: 20 });
    await a.take();
    await a.take();
    a.refund();
    expect((await a.status()).used).toBe(1);
    const file = join(stateDir, 'quota', `${tokenHash16(TOKEN)}.json`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ used: 20 });
    await a.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ used: 1 });
    const b = new QuotaStore({ stateDir, token: TOKEN, limit: 100, clock });
    expect(await b.status()).toMatchObject({ used: 1, remaining: 99 });
  });

  it('a refund while a block is being reserved is kept (requests that fail unsent while another waits for the file)', async () => {
    const clock = new ManualClock('2026-01-05T12:00:00Z');
    const a = new QuotaStore({ stateDir, token: TOKEN, limit: 100, clock, blockSize: 20 });
    // Two taken from the first block, then the block used up, so the next take reserves anew.
    for (let i = 0; i < 20; i++) await a.take();
    const reserving = a.take();
    // Two requests taken earlier never left (no connection): given back while the file is written
    // (the write takes the file's lock first: a turn of the event loop is well inside it).
    await new Promise((resolve) => setImmediate(resolve));
    a.refund();
    a.refund();
    await reserving;
    expect((await a.status()).used).toBe(19);
    await a.close();
    expect(JSON.parse(await readFile(join(stateDir, 'quota', `${tokenHash16(TOKEN)}.json`), 'utf8'))).toMatchObject({ used: 19 });
  });

  it('rejects an invalid time zone', () => {
    expect(() => new QuotaStore({ stateDir, token: TOKEN, limit: 1, clock: new ManualClock(0), timeZone: 'Mars/Base' })).toThrow(
      /quotaTimeZone/,
    );
  });

  it('removes the temp file a writer killed mid-write left, and only those of its own count', async () => {
    const clock = new ManualClock('2026-01-05T12:00:00Z');
    const quotaDir = join(stateDir, 'quota');
    await mkdir(quotaDir, { recursive: true });
    const own = `.${tokenHash16(TOKEN)}.json.tmp-4242-deadbeef`;
    const other = `.${tokenHash16('another-token')}.json.tmp-4243-cafebabe`;
    await writeFile(join(quotaDir, own), '{"used":');
    await writeFile(join(quotaDir, other), '{"used":');
    const store = new QuotaStore({ stateDir, token: TOKEN, limit: 5, clock });
    await store.take();
    expect((await readdir(quotaDir)).sort()).toEqual([other, `${tokenHash16(TOKEN)}.json`].sort());
    await store.close();
  });
});

