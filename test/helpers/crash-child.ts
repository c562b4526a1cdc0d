/**
 * One run of a crash fixture (test/fixtures/crash-run*.mjs) in a child Node, SIGKILLed
 * `killAfterMs` after it prints "started" (or left to finish without it): what the crash tests of
 * every sink and backend repeat.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildResult {
  killed: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  /** From "started" to exit. */
  ms: number;
}

/** `args`: the fixture's path and its arguments; `env`: the child's environment (default this process's). */
export function runCrashChild(args: readonly string[], killAfterMs?: number, env?: NodeJS.ProcessEnv): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, ...(env ? { env } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let startedAt = 0;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (startedAt === 0 && stdout.includes('started\n')) {
        startedAt = performance.now();
        if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    // 'close', not 'exit': the child's last output may still be unread when it has exited.
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', code, stdout, stderr, ms: startedAt ? performance.now() - startedAt : 0 });
    });
  });
}

/**
 * Each scenario's kill moments (ms after its start), drawn from one seeded sequence in scenario
 * order, so a scenario gets the same moments whichever lane runs it: `runs` from `minRuns` to
 * `minRuns + extraRuns - 1` kills, each before `spanMs`.
 */
export function seededKillMoments(random: () => number, spanMs: number, minRuns = 3, extraRuns = 3): (scenario: number) => number[] {
  const moments: number[][] = [];
  return (n) => {
    while (moments.length <= n) {
      const runs = minRuns + Math.floor(random() * extraRuns);
      moments.push(Array.from({ length: runs }, () => Math.floor(random() * spanMs)));
    }
    return moments[n]!;
  };
}
