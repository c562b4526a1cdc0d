/**
 * The output lock admits one writer at a time: many processes racing for one folder, free or left by
 * a dead run, always end with exactly one holder; a lock is only ever removed by its own run or by
 * the one contender that takes over a dead holder's lock.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireOutputLock, LOCK_FILE } from '../../src/runtime/output-lock.js';

const CONTENDER = fileURLToPath(new URL('../fixtures/lock-contender.mjs', import.meta.url));
const WORKERS = 4;
const ATTEMPTS_PER_WORKER = 3;
const TRIALS = 120;

const tmp = () => mkdtemp(join(tmpdir(), 'ql-lock-'));
const when = new Date('2026-11-22T00:00:00Z');

/** The pid of a process that has exited: a lock naming it is stale. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return child.pid!;
}

function staleLock(pid: number, runId: string): string {
  return JSON.stringify({ pid, host: hostname(), runId, pipeline: 'dead', startedAt: when.toISOString() });
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    child.once('error', onError);
    child.once('message', (reply) => {
      child.off('error', onError);
      resolve(reply as T);
    });
    child.send(message);
  });
}

type Result = { runId: string; held?: true; code?: string };

describe('the output lock under contention', () => {
  let workers: ChildProcess[] = [];
  beforeAll(() => {
    workers = Array.from({ length: WORKERS }, () => fork(CONTENDER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  });
  afterAll(() => {
    for (const w of workers) w.kill();
  });

  it(`${TRIALS} trials of ${WORKERS * ATTEMPTS_PER_WORKER} contenders in ${WORKERS} processes: exactly one holder each time, a dead run's lock taken over in half`, async () => {
    const dead = deadPid();
    const root = await tmp();
    const holders: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const dir = join(root, `t${trial}`);
      // Every other trial starts with the lock of a run whose process is gone.
      if (trial % 2 === 1) {
        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, LOCK_FILE), staleLock(dead, `dead-${trial}`));
      }
      const replies = await Promise.all(workers.map((w) => ask<{ results: Result[] }>(w, { dir, attempts: ATTEMPTS_PER_WORKER, tag: `t${trial}` })));
      const results = replies.flatMap((r) => r.results);
      const won = results.filter((r) => r.held);
      holders.push(won.length);
      expect(results.filter((r) => !r.held).every((r) => r.code === 'QL_OUTPUT_LOCKED'), JSON.stringify(results)).toBe(true);
      if (won.length === 1) {
        expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ runId: won[0]!.runId });
      }
      await Promise.all(workers.map((w) => ask(w, { release: true })));
      // Nothing is left behind: no lock, no temp file, no claim.
      expect(await readdir(dir)).toEqual([]);
    }
    expect(holders.filter((n) => n !== 1)).toEqual([]);
    expect(holders).toHaveLength(TRIALS);
    await rm(root, { recursive: true, force: true });
  });
});

describe('acquireOutputLock', () => {
  it('the lock is never seen without its content: it holds the owner from the instant it exists', async () => {
    const dir = await tmp();
    const lock = await acquireOutputLock(dir, { runId: 'r1', pipeline: 'p', now: when });
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toEqual({ pid: process.pid, host: hostname(), runId: 'r1', pipeline: 'p', startedAt: when.toISOString() });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('an empty or unreadable lock file is never judged stale: refused, with what to do', async () => {
    const dir = await tmp();
    await writeFile(join(dir, LOCK_FILE), '');
    await expect(acquireOutputLock(dir, { runId: 'r1', pipeline: 'p', now: when })).rejects.toMatchObject({
      code: 'QL_OUTPUT_LOCKED',
      message: `${dir} is locked by ${join(dir, LOCK_FILE)}, which names no run (empty, or not a quotelake lock record), so no holder can be checked and it is never taken over: if no quotelake command is writing to this output, delete it`,
    });
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe('');
  });

  it('a lock on another host is never taken over, even if its pid is free here', async () => {
    const dir = await tmp();
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: `not-${hostname()}`, runId: 'far', pipeline: 'q' }));
    await expect(acquireOutputLock(dir, { runId: 'r1', pipeline: 'p', now: when })).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED', message: expect.stringContaining('in use by run far of pipeline q') });
  });

  it('the refusal says when the holder started, and that another host\'s process cannot be checked from here (a pod killed hard leaves such a lock)', async () => {
    const dir = await tmp();
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: 7, host: 'quotelake-kline-29410000-x7k2p', runId: 'far', pipeline: 'q', startedAt: '2026-11-20T00:15:00.000Z' }));
    await expect(acquireOutputLock(dir, { runId: 'r1', pipeline: 'p', now: when })).rejects.toMatchObject({
      code: 'QL_OUTPUT_LOCKED',
      message: `${dir} is in use by run far of pipeline q (pid 7 on quotelake-kline-29410000-x7k2p, started 2026-11-20T00:15:00.000Z); ` +
        `a process on another host cannot be checked from here and its lock is never taken over: once that process is gone, delete ${join(dir, LOCK_FILE)}`,
    });
  });

  it('a lock naming this very pid that this process does not hold is a dead run\'s: taken over (a container\'s PID 1, killed, and the next one PID 1 again under the same host name)', async () => {
    const dir = await tmp();
    await writeFile(join(dir, LOCK_FILE), staleLock(process.pid, 'killed-container'));
    const lock = await acquireOutputLock(dir, { runId: 'next-container', pipeline: 'p', now: when });
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, runId: 'next-container' });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a lock this process holds is still refused to another run in the same process, and free again once released', async () => {
    const dir = await tmp();
    const first = await acquireOutputLock(dir, { runId: 'first', pipeline: 'p', now: when });
    await expect(acquireOutputLock(dir, { runId: 'second', pipeline: 'p', now: when })).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED', message: expect.stringContaining('in use by run first') });
    await first.release();
    const second = await acquireOutputLock(dir, { runId: 'second', pipeline: 'p', now: when });
    await second.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a dead run\'s lock raced by 40 attempts at once: exactly one takes it over', async () => {
    const dir = await tmp();
    await writeFile(join(dir, LOCK_FILE), staleLock(deadPid(), 'dead'));
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => acquireOutputLock(dir, { runId: `c${i}`, pipeline: 'p', now: when })));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireOutputLock>>>).value.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('release() leaves a lock that is no longer its own', async () => {
    const dir = await tmp();
    const lock = await acquireOutputLock(dir, { runId: 'mine', pipeline: 'p', now: when });
    // Another run now holds the folder (as if ours had been judged dead and taken over).
    const theirs = JSON.stringify({ pid: process.ppid, host: hostname(), runId: 'theirs', pipeline: 'q', startedAt: when.toISOString() });
    await writeFile(join(dir, LOCK_FILE), theirs);
    await lock.release();
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(theirs);
    // Same runId from another process is not ours either.
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), runId: 'mine', pipeline: 'p', startedAt: when.toISOString() }));
    await lock.release();
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('release() twice, or after the lock is gone, is harmless', async () => {
    const dir = await tmp();
    const lock = await acquireOutputLock(dir, { runId: 'r1', pipeline: 'p', now: when });
    await lock.release();
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('leftovers of a contender killed mid-step', () => {
  const claimOf = (lock: string, generation: number) => `${LOCK_FILE}.stale-${createHash('sha256').update(lock).digest('hex').slice(0, 32)}-${generation}`;

  it('a take-over claim whose claimant died does not block the take-over, and no claim is left', async () => {
    const dir = await tmp();
    const stale = staleLock(deadPid(), 'dead');
    await writeFile(join(dir, LOCK_FILE), stale);
    await writeFile(join(dir, claimOf(stale, 0)), staleLock(deadPid(), 'killed-claimant'));
    const lock = await acquireOutputLock(dir, { runId: 'next', pipeline: 'p', now: when });
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ runId: 'next' });
    await lock.release();
    await rm(dir, { recursive: true, force: true });
  });

  it('a live claimant of the stale lock is left alone: the lock is not taken', async () => {
    const dir = await tmp();
    const stale = staleLock(deadPid(), 'dead');
    await writeFile(join(dir, LOCK_FILE), stale);
    await writeFile(join(dir, claimOf(stale, 0)), staleLock(process.pid, 'busy-claimant'));
    await expect(acquireOutputLock(dir, { runId: 'next', pipeline: 'p', now: when })).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(stale);
    await rm(dir, { recursive: true, force: true });
  });

  it('a claim for a lock that is gone is swept by the next run', async () => {
    const dir = await tmp();
    await writeFile(join(dir, claimOf('a lock removed long ago', 3)), staleLock(process.pid, 'whoever'));
    const lock = await acquireOutputLock(dir, { runId: 'next', pipeline: 'p', now: when });
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    await lock.release();
    await rm(dir, { recursive: true, force: true });
  });

  it('its private temp file is removed by the next run once its process is gone; a live one is left alone', async () => {
    const dir = await tmp();
    const dead = `${LOCK_FILE}.new-${deadPid()}-0123abcd`;
    const live = `${LOCK_FILE}.new-${process.pid}-4567cdef`;
    await writeFile(join(dir, dead), staleLock(1, 'killed'));
    await writeFile(join(dir, live), staleLock(process.pid, 'busy'));
    const lock = await acquireOutputLock(dir, { runId: 'next', pipeline: 'p', now: when });
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE, live].sort());
    await lock.release();
    await rm(dir, { recursive: true, force: true });
  });
});
