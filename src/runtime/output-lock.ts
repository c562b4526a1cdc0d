/**
 * One run at a time per output directory: recovery at start deletes staging and unlisted files, which
 * would destroy a concurrent run's work. The lock is a file created exclusively; a lock left by a
 * killed process on this host (its pid is gone) is taken over, so a crash never needs a manual fix.
 */
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { QuotelakeError } from '../core/errors.js';

export const LOCK_FILE = '.quotelake.lock';

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
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(JSON.stringify(info));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return {
        path,
        release: async () => {
          await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: Partial<LockInfo> = {};
    try {
      holder = JSON.parse(await readFile(path, 'utf8')) as Partial<LockInfo>;
    } catch {
      // Empty or half-written: its writer died between create and write.
    }
    const stale =
      holder.pid === undefined || (holder.host === info.host && typeof holder.pid === 'number' && holder.pid !== process.pid && !alive(holder.pid));
    if (!stale) {
      throw new QuotelakeError(
        'QL_OUTPUT_LOCKED',
        `${outputDir} is in use by run ${holder.runId ?? '?'} of pipeline ${holder.pipeline ?? '?'} (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}); ` +
          `if that process is gone, delete ${path}`,
        { stage: 'plan' },
      );
    }
    await rm(path, { force: true });
  }
  throw new QuotelakeError('QL_OUTPUT_LOCKED', `could not take the lock ${path}`, { stage: 'plan' });
}
