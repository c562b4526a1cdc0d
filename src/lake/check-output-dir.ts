/**
 * The output folder is checked before a run touches anything: on a regular file system (not /proc,
 * /sys and the like, where writes vanish or hang), there or creatable, and writable (a probe file is
 * created and removed under `_quotelake/`). A run that would fail at its first commit, after
 * minutes of requests and quota, fails here at once with the path and the fix.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rmdir, stat, statfs, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { environmentErrorOf } from '../core/environment-error.js';
import { EnvironmentError } from '../core/errors.js';
import { makeDir } from '../core/make-dir.js';
import { processAlive } from '../core/process-alive.js';
import { LAKE_DIR } from './lake-paths.js';

/** statfs `type` of kernel file systems that are not storage (linux/magic.h). */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0xcafe4a11, 'bpf'],
]);

/** The deepest folder of `path` (itself included) that exists. */
async function nearestExisting(path: string): Promise<string> {
  let dir = resolve(path);
  for (;;) {
    const s = await stat(dir).catch(() => undefined);
    if (s !== undefined || dirname(dir) === dir) return dir;
    dir = dirname(dir);
  }
}

function refused(outputDir: string, error: unknown): unknown {
  const env = environmentErrorOf(error, 'plan');
  if (!env) return error;
  return new EnvironmentError(env.code, `output ${outputDir}: ${env.message}`, env.target, env.fix, { stage: 'plan', cause: error });
}

const PROBE = /^\.probe-(\d+)-[0-9a-f]+$/;

/** Probes left by a process killed between create and unlink (SIGKILL, power loss): its pid is gone. */
async function sweepDeadProbes(lakeDir: string): Promise<void> {
  const names = await readdir(lakeDir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = PROBE.exec(name)?.[1];
    if (pid !== undefined && !processAlive(Number(pid))) await unlink(join(lakeDir, name)).catch(() => undefined);
  }
}

export async function checkOutputDir(outputDir: string): Promise<void> {
  const existing = await nearestExisting(outputDir);
  const fs = await statfs(existing).catch(() => undefined);
  const pseudo = fs ? PSEUDO_FILE_SYSTEMS.get(Number(fs.type)) : undefined;
  if (pseudo !== undefined) {
    throw new EnvironmentError(
      'QL_OUTPUT_UNSUPPORTED',
      `output ${outputDir}: ${existing} is on ${pseudo}, a kernel file system, not storage`,
      outputDir,
      'choose an --output on a disk (a folder under your home, /var/lib, /data...)',
      { stage: 'plan' },
    );
  }
  const lakeDir = join(outputDir, LAKE_DIR);
  const lakeDirExisted = (await stat(lakeDir).catch(() => undefined)) !== undefined;
  if (lakeDirExisted) await sweepDeadProbes(lakeDir);
  const probe = join(lakeDir, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await makeDir(lakeDir);
    const handle = await open(probe, 'wx');
    try {
      await handle.writeFile('quotelake write probe\n');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw refused(outputDir, error);
  } finally {
    await unlink(probe).catch(() => undefined);
    // Leave the output as it was: a new lake gets its `_quotelake/` from the run itself.
    if (!lakeDirExisted) await rmdir(lakeDir).catch(() => undefined);
  }
}
