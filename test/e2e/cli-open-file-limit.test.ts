/**
 * A shell whose open-file limit is too low for quotelake to load its own code (`ulimit -n 40`):
 * Node opens each file of the bundle as it loads it, so the command fails before any of its own
 * error handling exists (at the start) or inside it (a command's code loads when it runs). Either
 * way the user reads one line that says to raise `ulimit -n`, never Node's stack, and exit 2: the
 * same command fails again until the limit is raised.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cleanEnv, MAIN, ROOT } from './helpers/cli.js';

interface Outcome {
  limit: number;
  code: number | null;
  stderr: string;
}

/** `quotelake run --dry-run` of a shipped pipeline under `ulimit -n <limit>` (nothing is sent, nothing listens). */
function runUnderLimit(limit: number, env: Record<string, string> = {}): Promise<Outcome> {
  const command = `ulimit -n ${limit} && exec "$0" "$1" run pipelines/demo.yaml --dry-run --base-url http://127.0.0.1:9 --token t --plan professional`;
  const child = spawn('bash', ['-c', command, process.execPath, MAIN], { cwd: ROOT, env: cleanEnv(env) });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve({ limit, code, stderr })));
}

describe('an open-file limit too low to load quotelake', () => {
  it('is one line naming EMFILE and ulimit -n, exit 2, at start-up and when a command loads its code', async () => {
    // Below about 22 Node itself cannot start (its own files, then the entry's few static chunks,
    // which load before any handler of ours exists); from some limit on the whole command loads.
    // Which limits fail where depends on how the bundle is split, so a range is tried and each failure checked.
    const outcomes: Outcome[] = [];
    for (let limit = 25; limit <= 90; limit += 5) outcomes.push(await runUnderLimit(limit));
    const failed = outcomes.filter((o) => o.stderr.includes('EMFILE'));
    expect(failed.map((o) => o.limit)).toContain(40);
    for (const o of failed) {
      expect({ limit: o.limit, code: o.code }).toEqual({ limit: o.limit, code: 2 });
      expect(o.stderr.trimEnd().split('\n'), `ulimit -n ${o.limit}`).toEqual([
        'quotelake: EMFILE: too many open files to load quotelake itself: raise the open-file limit (ulimit -n, e.g. ulimit -n 1024) and run the command again',
      ]);
    }
    // A limit that lets it load plans as usual (how many files loading takes varies with the build).
    const loaded = await runUnderLimit(1024);
    expect(loaded.code, loaded.stderr).toBe(0);
  }, 60_000);

  it('with JSON logs asked for, is one JSON line of event error and code QL_TOO_MANY_FILES, exit 2, never a silent exit 1', async () => {
    const outcomes: Outcome[] = [];
    // From 30 on Node itself starts: each limit either loads the whole command or fails with the line.
    for (let limit = 30; limit <= 90; limit += 5) outcomes.push(await runUnderLimit(limit, { QUOTELAKE_LOG_FORMAT: 'json' }));
    expect(outcomes.filter((o) => o.code !== 0).map((o) => o.limit)).toContain(40);
    for (const o of outcomes) {
      if (o.code === 0) continue;
      expect({ limit: o.limit, code: o.code }).toEqual({ limit: o.limit, code: 2 });
      const lines = o.stderr.trimEnd().split('\n');
      expect(lines, `ulimit -n ${o.limit}`).toHaveLength(1);
      expect(JSON.parse(lines[0]!), `ulimit -n ${o.limit}`).toMatchObject({
        level: 'error',
        event: 'error',
        code: 'QL_TOO_MANY_FILES',
        msg: 'EMFILE: too many open files to load quotelake itself',
        hint: 'raise the open-file limit (ulimit -n, e.g. ulimit -n 1024) and run the command again',
      });
    }
  }, 60_000);
});
