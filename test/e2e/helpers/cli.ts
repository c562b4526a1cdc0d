/** Spawns the BUILT CLI (dist/cli/quotelake.js, built by the vitest global setup) and collects its output. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { allFiles } from '../../helpers/all-files.js';
import { allFiles } from '../../helpers/all-files.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = join(ROOT, 'dist/cli/quotelake.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  result: Promise<CliResult>;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches. */
  waitForStderr(re: RegExp): Promise<RegExpMatchArray>;
}

/** The environment without any QUOTELAKE_* of the developer's shell. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('QUOTELAKE_')) env[k] = v;
  return { ...env, ...extra };
}

export function startCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliProcess {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env) });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of [...waiters]) {
      const m = err.match(w.re);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const result = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err }));
  });
  return {
    child,
    result,
    stdout: () => out,
    stderr: () => err,
    waitForStderr: (re) =>
      new Promise((resolve, reject) => {
        const m = err.match(re);
        if (m) return resolve(m);
        waiters.push({ re, resolve });
        void result.then(() => reject(new Error(`CLI exited before stderr matched ${re}:\n${err}`)));
      }),
  };
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

export function tempDir(prefix = 'ql-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every file under a folder (recursive), dot-folders included. */
export function filesContaining(dir: string, needle: string): string[] {
  return allFiles(dir).filter((f) => readFileSync(f).includes(needle));
}
