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

type Done = (err: NodeJS.ErrnoException | null) => void;

const MAKING_SUFFIX = '.making';

/** A file a holder killed between making it and linking it leaves; swept by the next holder once old. */
export function isLockMaking(name: string, lockName: string): boolean {
  return name.startsWith(`${lockName}.`) && name.endsWith(MAKING_SUFFIX);
}

/** Older than this, a file being made is a killed maker's (making one takes microseconds). */
export const MAKING_STALE_MS = 60_000;

function makeLock(path: fs.PathLike, done: Done, tries = 2): void {
  const lockPath = String(path);
  const making = `${lockPath}.${process.pid}-${randomBytes(4).toString('hex')}${MAKING_SUFFIX}`;
  const dropMaking = (err: NodeJS.ErrnoException | null) => fs.unlink(making, () => done(err));
  fs.writeFile(making, '', { flag: 'wx' }, (written) => {
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

function dropLock(path: fs.PathLike, done: Done): void {
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
  rmdirSync: dropLockSync as typeof fs.rmdirSync,
};
