/**
 * One run at a time per output directory: recovery at start deletes staging and unlisted files, which
 * would destroy a concurrent run's work. A lock left by a killed process on this host (its pid is
 * gone) is taken over, so a crash never needs a manual fix.
 *
 * Why each step is atomic:
 * - Create: the holder's record is written and synced to a private temp file, then `link()`ed to the
 *   lock name. link fails with EEXIST when the name exists, so the lock never exists without its
 *   content (an empty lock file cannot be mistaken for a dead holder's).
 * - Take over: a contender that judged lock X stale links the current lock file to a claim name
 *   derived from X (`<lock>.stale-<hash of X>`). link is exclusive, so exactly one contender wins the
 *   claim for X; the claim is a second name of whatever file the lock name held at that instant, so
 *   the winner reads the claim back and removes the lock only if the claim still holds X byte for
 *   byte. A contender that was slow and linked a newer, live lock finds other content and backs off
 *   without touching the lock.
 * - Release: removes the lock only while it still names this run (its runId and pid). Nobody else
 *   removes a lock whose holder is alive, so nothing can slip in between that check and the unlink.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { QuotelakeError } from '../core/errors.js';

export const LOCK_FILE = '.quotelake.lock';

/** Contended take-overs retried before giving up; each round needs another process to win. */
const MAX_ROUNDS = 50;

interface LockInfo {
  readonly pid: number;
  readonly host: string;
  readonly runId: string;
  readonly pipeline: string;
  readonly startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function parse(text: string): Partial<LockInfo> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Partial<LockInfo>) : {};
  } catch {
    return {};
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (code(error) !== 'ENOENT') throw error;
  });
}

export interface OutputLock {
  readonly path: string;
  release(): Promise<void>;
}

export async function acquireOutputLock(
  outputDir: string,
  owner: { runId: string; pipeline: string; now: Date },
): Promise<OutputLock> {
  await mkdir(outputDir, { recursive: true });
  const path = join(outputDir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, host: hostname(), runId: owner.runId, pipeline: owner.pipeline, startedAt: owner.now.toISOString() };
  const text = JSON.stringify(info);
  await sweepLeftovers(outputDir);
  const temp = `${path}.new-${process.pid}-${randomBytes(6).toString('hex')}`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        await link(temp, path);
        return { path, release: () => releaseIfOurs(path, info) };
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
      const held = await readText(path);
      if (held === undefined) continue; // released between our link and our read
      const holder = parse(held);
      const stale = holder.host === info.host && typeof holder.pid === 'number' && holder.pid !== process.pid && !alive(holder.pid);
      if (!stale) {
        throw new QuotelakeError(
          'QL_OUTPUT_LOCKED',
          `${outputDir} is in use by run ${holder.runId ?? '?'} of pipeline ${holder.pipeline ?? '?'} (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}); ` +
            `if that process is gone, delete ${path}`,
          { stage: 'plan' },
        );
      }
      await takeOver(path, held);
    }
    throw new QuotelakeError('QL_OUTPUT_LOCKED', `could not take the lock ${path}`, { stage: 'plan' });
  } finally {
    await unlinkIfPresent(temp);
  }
}

/**
 * A contender killed between writing its private temp file and linking it leaves that file beside
 * the lock; it is named by the contender's pid and removed once that process is gone. (A leftover
 * take-over claim is not swept: a claim shares the stale lock's inode, so its age says nothing,
 * and removing a live contender's claim could let it remove a newer lock.)
 */
async function sweepLeftovers(outputDir: string): Promise<void> {
  const pattern = new RegExp(`^${LOCK_FILE.replace('.', '\\.')}\\.new-(\\d+)-[0-9a-f]+$`);
  for (const name of await readdir(outputDir)) {
    const temp = pattern.exec(name);
    if (temp && !alive(Number(temp[1]))) await unlinkIfPresent(join(outputDir, name));
  }
}

/** Removes the lock if it still holds exactly `stale`; at most one contender does so per stale lock. */
async function takeOver(path: string, stale: string): Promise<void> {
  const claim = `${path}.stale-${createHash('sha256').update(stale).digest('hex').slice(0, 32)}`;
  try {
    await link(path, claim);
  } catch (error) {
    // EEXIST: another contender claimed this stale lock; ENOENT: the lock is already gone.
    if (code(error) === 'EEXIST' || code(error) === 'ENOENT') return;
    throw error;
  }
  try {
    // The claim names the file the lock held when we linked it: the stale one, or a newer lock.
    if ((await readText(claim)) === stale) await unlinkIfPresent(path);
  } finally {
    await unlinkIfPresent(claim);
  }
}

async function releaseIfOurs(path: string, ours: LockInfo): Promise<void> {
  const held = await readText(path);
  if (held === undefined) return;
  const holder = parse(held);
  if (holder.runId !== ours.runId || holder.pid !== ours.pid || holder.startedAt !== ours.startedAt) return;
  await unlinkIfPresent(path);
}
