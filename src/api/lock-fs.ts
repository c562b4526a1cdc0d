/**
 * The file system proper-lockfile works through, with a lock that is a file made whole under a
 * temporary name and linked into place, instead of a folder made by `mkdir`.
 *
 * proper-lockfile judges a lock stale by its mtime against `Date.now()`. A folder's mtime at
 * `mkdir` is the file system's clock (a file server's, or the real one under a faked clock); with
 * that clock more than the stale period away from the process's, a second process takes a lock
 * that is held, and two reservations of the shared quota interleave. Stamping the folder after
 * `mkdir` leaves a moment where it can be seen unstamped. A file stamped before `link` is never
 * seen without its time, and `link` fails with EEXIST as atomically as `mkdir` does.
 */
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { processAlive } from '../core/process-alive.js';

type Done = (err: NodeJS.ErrnoException | null) => void;

const MAKING_SUFFIX = '.making';

/** A file a holder killed between making it and linking it leaves; swept by the next holder once old. */
export function isLockMaking(name: string, lockName: string): boolean {
  return name.startsWith(`${lockName}.`) && name.endsWith(MAKING_SUFFIX);
}

/** Older than this, a file being made is a killed maker's (making one takes microseconds). */
export const MAKING_STALE_MS = 60_000;

/** proper-lockfile's stale period: a lock not refreshed for this long is taken over. */
export const LOCK_STALE_MS = 10_000;

/**
 * A lock names its maker, so one whose maker on this host has died (a SIGKILL while it held it) is
 * taken at once instead of after LOCK_STALE_MS: a run started right after, or a run being stopped,
 * would otherwise wait that long for the shared quota file.
 */
interface LockMaker {
  readonly pid: number;
  readonly host: string;
}

const makerText = (): string => `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockMaker)}\n`;

/** Another process on this host, alive or not; undefined for ours, another host's, or no name (an older lock). */
function otherLocalMaker(text: string): LockMaker | undefined {
  let maker: Partial<LockMaker>;
  try {
    maker = JSON.parse(text) as Partial<LockMaker>;
  } catch {
    return undefined;
  }
  if (maker.host !== hostname() || !Number.isSafeInteger(maker.pid) || maker.pid === process.pid) return undefined;
  return maker as LockMaker;
}

function readMaker(path: fs.PathLike, done: (maker: LockMaker | undefined) => void): void {
  fs.readFile(path, 'utf8', (err, text) => done(err ? undefined : otherLocalMaker(text)));
}

function makeLock(path: fs.PathLike, done: Done, tries = 2): void {
  const lockPath = String(path);
  const making = `${lockPath}.${process.pid}-${randomBytes(4).toString('hex')}${MAKING_SUFFIX}`;
  const dropMaking = (err: NodeJS.ErrnoException | null) => fs.unlink(making, () => done(err));
  fs.writeFile(making, makerText(), { flag: 'wx' }, (written) => {
    if (written) return done(written);
    const now = new Date();
    fs.utimes(making, now, now, (stamped) => {
      if (stamped) return dropMaking(stamped);
      fs.link(making, lockPath, (linked) => {
        // Swept as debris between its making and its link (a file system clock far behind): make another.
        if (linked?.code === 'ENOENT' && tries > 1) return makeLock(path, done, tries - 1);
        dropMaking(linked);
      });
    });
  });
}

/** As fs.stat, but a lock whose maker on this host is dead reads as old as can be: stale now. */
function statLock(path: fs.PathLike, done: (err: NodeJS.ErrnoException | null, stat?: fs.Stats) => void): void {
  fs.stat(path, (err, stat) => {
    if (err || !stat.isFile()) return done(err, stat);
    readMaker(path, (maker) => done(null, maker !== undefined && !processAlive(maker.pid) ? Object.assign(Object.create(Object.getPrototypeOf(stat) as object) as fs.Stats, stat, { mtime: new Date(0) }) : stat));
  });
}

/**
 * Removing a lock judged stale: if, meanwhile, another live process on this host made a new one (two
 * waiters saw the same dead maker), that one is held and stays; the remover tries again.
 */
function dropLock(path: fs.PathLike, done: Done): void {
  fs.stat(path, (statErr, stat) => {
    if (statErr || !stat.isFile() || Date.now() - stat.mtimeMs > LOCK_STALE_MS) return unlinkLock(path, done);
    readMaker(path, (maker) => {
      if (maker !== undefined && processAlive(maker.pid)) return done(Object.assign(new Error(`lock ${String(path)} is held by process ${maker.pid}`), { code: 'ELOCKED' }));
      unlinkLock(path, done);
    });
  });
}

function unlinkLock(path: fs.PathLike, done: Done): void {
  fs.unlink(path, (err) => {
    // A folder is the lock of an earlier quotelake (or of plain proper-lockfile): remove it as such.
    if (err && (err.code === 'EISDIR' || err.code === 'EPERM')) return fs.rmdir(path, done);
    done(err);
  });
}

function dropLockSync(path: fs.PathLike): void {
  try {
    fs.unlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM') throw err;
    fs.rmdirSync(path);
  }
}

/** Pass as proper-lockfile's `fs` option. One object, so the library's cached mtime precision holds. */
export const lockFs: typeof fs = {
  ...fs,
  mkdir: makeLock as typeof fs.mkdir,
  rmdir: dropLock as typeof fs.rmdir,
  stat: statLock as typeof fs.stat,
  rmdirSync: dropLockSync as typeof fs.rmdirSync,
};
