/**
 * One run at a time per output directory: recovery at start deletes staging and unlisted files, which
 * would destroy a concurrent run's work. A lock left by a killed process on this host (its pid is
 * gone, or is now this process's own, as a restarted container's PID 1) is taken over, so a crash
 * never needs a manual fix.
 *
 * Why each step is atomic:
 * - Create: the holder's record is written and synced to a private temp file, then `link()`ed to the
 *   lock name. link fails with EEXIST when the name exists, so the lock never exists without its
 *   content (an empty lock file cannot be mistaken for a dead holder's).
 * - Take over: a contender that judged lock X stale creates a claim for X exclusively
 *   (`<lock>.stale-<hash of X>-<generation>`, holding its pid), so one live contender at a time acts
 *   on X; it removes the lock only if the lock still holds X byte for byte. Only a claimant removes
 *   a stale lock, so nothing newer can take X's place between that read and the unlink. A claim
 *   whose claimant died is passed over for the next generation.
 * - Release: removes the lock only while it still names this run (its runId and pid). Nobody else
 *   removes a lock whose holder is alive, so nothing can slip in between that check and the unlink.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, open, readdir, readFile, unlink } from 'node:fs/promises';
import { makeDir } from '../core/make-dir.js';
import { processAlive as alive } from '../core/process-alive.js';
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

/**
 * The lock records this process holds or is linking into place. A lock naming this process's own
 * pid on this host is live only if it is one of these: otherwise it is a dead process's that had the
 * same pid, as a container's PID 1 killed outright and restarted under the same host name.
 */
const ownRecords = new Set<string>();

/** A record another process left on this host, whose process is gone (its pid is free, or now ours). */
function holderGone(holder: Partial<LockInfo>, held: string): boolean {
  if (holder.host !== hostname() || typeof holder.pid !== 'number') return false;
  return holder.pid === process.pid ? !ownRecords.has(held) : !alive(holder.pid);
}

export interface OutputLock {
  readonly path: string;
  release(): Promise<void>;
}

export async function acquireOutputLock(
  outputDir: string,
  owner: { runId: string; pipeline: string; now: Date },
): Promise<OutputLock> {
  await makeDir(outputDir);
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
  // Ours from before the link: another run of this process that reads it then finds it live.
  ownRecords.add(text);
  let held = false;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        await link(temp, path);
        held = true;
        return {
          path,
          release: async () => {
            try {
              await releaseIfOurs(path, info);
            } finally {
              ownRecords.delete(text);
            }
          },
        };
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
      const found = await readText(path);
      if (found === undefined) continue; // released between our link and our read
      const holder = parse(found);
      if (!holderGone(holder, found)) throw lockedBy(outputDir, path, holder);
      await takeOver(path, found, temp);
    }
    throw new QuotelakeError('QL_OUTPUT_LOCKED', `could not take the lock ${path}`, { stage: 'plan' });
  } finally {
    if (!held) ownRecords.delete(text);
    await unlinkIfPresent(temp);
  }
}

/**
 * Whether run `runId`, recorded as running, has no live process holding `outputDir`: the lock is
 * gone or names another run, or its pid on this host is dead (a SIGKILL, a crash). False where it
 * cannot be told from here (a holder on another host, a lock that cannot be read).
 */
export async function runHoldsNoLock(outputDir: string, runId: string): Promise<boolean> {
  const held = await readText(join(outputDir, LOCK_FILE)).catch(() => null);
  if (held === null) return false;
  if (held === undefined) return true;
  const holder = parse(held);
  if (holder.runId !== undefined && holder.runId !== runId) return true;
  return holder.runId === runId && holder.host === hostname() && typeof holder.pid === 'number' && !alive(holder.pid);
}

/**
 * The refusal names the holder and when it started, so a lock days old reads as the leftover it
 * is. One of another host (a pod of the last job, on a shared volume) cannot be judged from here.
 */
function lockedBy(outputDir: string, path: string, holder: Partial<LockInfo>): QuotelakeError {
  // Empty, or not a lock record (no run, pid or host): "run ? of pipeline ? (pid ? on ?)" told nothing.
  if (holder.runId === undefined && holder.pid === undefined && holder.host === undefined) {
    return new QuotelakeError(
      'QL_OUTPUT_LOCKED',
      `${outputDir} is locked by ${path}, which names no run (empty, or not a quotelake lock record), so no holder can be checked and it is never taken over: if no quotelake command is writing to this output, delete it`,
      { stage: 'plan', hint: 'quotelake writes its lock whole, naming its run: check what else writes to this output (a copy, a sync, a hand edit), then delete the file' },
    );
  }
  const started = typeof holder.startedAt === 'string' ? `, started ${holder.startedAt}` : '';
  const elsewhere = typeof holder.host === 'string' && holder.host !== hostname();
  const what = elsewhere
    ? `a process on another host cannot be checked from here and its lock is never taken over: once that process is gone, delete ${path}`
    : `if that process is gone, delete ${path}`;
  return new QuotelakeError(
    'QL_OUTPUT_LOCKED',
    `${outputDir} is in use by run ${holder.runId ?? '?'} of pipeline ${holder.pipeline ?? '?'} (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}${started}); ${what}`,
    { stage: 'plan' },
  );
}

/** Generations of take-over claims for one stale lock: a claimant killed mid-step leaves one behind. */
const CLAIM_GENERATIONS = 8;

const staleHash = (stale: string) => createHash('sha256').update(stale).digest('hex').slice(0, 32);
const CLAIM_NAME = new RegExp(`^${LOCK_FILE.replace('.', '\\.')}\\.stale-([0-9a-f]{32})-\\d+$`);
const TEMP_NAME = new RegExp(`^${LOCK_FILE.replace('.', '\\.')}\\.new-(\\d+)-[0-9a-f]+$`);

/**
 * What a contender killed mid-step leaves beside the lock: its private temp file (named by its pid,
 * removed once that process is gone) and a take-over claim of a stale lock that is gone by now (a
 * claim only matters while the lock it was made for is still there; a live claimant of a lock that
 * is gone finds it gone and backs off, so its claim can go too).
 */
async function sweepLeftovers(outputDir: string): Promise<void> {
  const held = await readText(join(outputDir, LOCK_FILE));
  const heldHash = held === undefined ? undefined : staleHash(held);
  for (const name of await readdir(outputDir)) {
    const temp = TEMP_NAME.exec(name);
    if (temp && !alive(Number(temp[1]))) await unlinkIfPresent(join(outputDir, name));
    const claim = CLAIM_NAME.exec(name);
    if (claim && claim[1] !== heldHash) await unlinkIfPresent(join(outputDir, name));
  }
}

/**
 * Removes the lock if it still holds exactly `stale`; one contender at a time does so. The claim is
 * a second name of the claimant's own lock record (so it holds its pid from the first instant),
 * made exclusively: while that claimant lives nobody else acts on this stale lock; a claim whose
 * claimant died (killed between claiming and finishing) is passed over for the next generation,
 * so a crash there never blocks later runs.
 */
async function takeOver(path: string, stale: string, ownRecord: string): Promise<void> {
  const base = `${path}.stale-${staleHash(stale)}`;
  for (let generation = 0; generation < CLAIM_GENERATIONS; generation++) {
    const claim = `${base}-${generation}`;
    try {
      // A second name of our own lock record: the claim exists only with its claimant's pid in it.
      await link(ownRecord, claim);
    } catch (error) {
      if (code(error) !== 'EEXIST') throw error;
      const holder = parse((await readText(claim)) ?? '');
      if (holder.host === hostname() && typeof holder.pid === 'number' && !alive(holder.pid)) continue;
      return; // a live contender is at work on this stale lock
    }
    try {
      // Only a claimant removes a stale lock, and claimants follow one another, so the lock read
      // here cannot turn into a newer one before the unlink.
      if ((await readText(path)) === stale) await unlinkIfPresent(path);
      for (let older = 0; older < generation; older++) await unlinkIfPresent(`${base}-${older}`);
    } finally {
      await unlinkIfPresent(claim);
    }
    return;
  }
}

async function releaseIfOurs(path: string, ours: LockInfo): Promise<void> {
  const held = await readText(path);
  if (held === undefined) return;
  const holder = parse(held);
  if (holder.runId !== ours.runId || holder.pid !== ours.pid || holder.startedAt !== ours.startedAt) return;
  await unlinkIfPresent(path);
}
