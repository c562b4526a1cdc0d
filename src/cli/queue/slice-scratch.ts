/**
 * A slice's private output folder (its run's bookkeeping: state, locks), in the system's temp folder:
 * `quotelake-slice-<pid>-<random>`. A worker removes its own after each slice; one killed with
 * kill -9 cannot, so each worker, when it starts, removes those whose process is gone (the pid in
 * the name says whose it is; a folder of a live worker on this host is left alone).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../core/process-alive.js';

const PREFIX = 'quotelake-slice-';
/** `<PREFIX><pid>-<random>`: the pid of the worker that made it. */
const NAMED = new RegExp(`^${PREFIX}(\\d+)-`);

export function makeSliceScratch(base: string = tmpdir()): Promise<string> {
  return mkdtemp(join(base, `${PREFIX}${process.pid}-`));
}

/** Removes the slice folders of workers no longer running; returns how many. */
export async function removeDeadSliceScratch(base: string = tmpdir()): Promise<number> {
  const names = await readdir(base).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = NAMED.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    await rm(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
