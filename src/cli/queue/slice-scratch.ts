/**
 * A slice's private output folder (its run's bookkeeping: state, locks), in the system's temp folder:
 * `quotelake-slice-<pid>-<random>`. A worker removes its own after each slice; one killed with
 * kill -9 cannot, so each worker, when it starts, removes those whose process is gone (the pid in
 * the name says whose it is; a folder of a live worker on this host is left alone).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'quotelake-slice-';

export function makeSliceScratch(base: string = tmpdir()): Promise<string> {
  return mkdtemp(join(base, `${PREFIX}${process.pid}-`));
}

/** True while a process of that id runs (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the slice folders of workers no longer running; returns how many. */
export async function removeDeadSliceScratch(base: string = tmpdir()): Promise<number> {
  const names = await readdir(base).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = /^quotelake-slice-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || alive(Number(pid))) continue;
    await rm(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
