/**
 * A failure that main's own error handler cannot report: in an install missing the file of the JSON
 * log writer (a damaged or half-replaced copy of the package), a failing command with JSON logs
 * makes the handler's own import fail. It used to end in a silent exit 1; it says one line, with
 * the message masked of the token, and exits 1. The install is a copy of the built CLI with that one
 * file removed (found by esbuild's metafile), its packages linked from this checkout.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, tempDir } from './helpers/cli.js';

const TOKEN = 'tok-last-resort-secret-7f3a';
let main: string;
let missing: string;

beforeAll(() => {
  const install = tempDir('ql-damaged-install-');
  cpSync(join(ROOT, 'dist/cli'), join(install, 'dist/cli'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(install, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(install, 'node_modules'));
  symlinkSync(join(ROOT, 'pipelines'), join(install, 'pipelines'));
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist/cli/quotelake.meta.json'), 'utf8')) as { outputs: Record<string, { entryPoint?: string }> };
  const chunk = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === 'dist/cli/json-notices.js')?.[0];
  if (chunk === undefined) throw new Error('no chunk of dist/cli/json-notices.js in the metafile');
  missing = chunk.slice('dist/cli/'.length);
  rmSync(join(install, chunk));
  main = join(install, 'dist/cli/quotelake.js');
});

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, ...args], { cwd: ROOT, env: cleanEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('an error handler that fails', () => {
  it('says the failure as one JSON line, the token masked, and exits 1', async () => {
    const r = await run(['run', 'no-such-pipeline', '--log-format', 'json', '--base-url', 'http://127.0.0.1:9', '--token', TOKEN]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: string; event: string; code: string; msg: string };
    expect(line).toMatchObject({ level: 'error', event: 'error', code: 'QL_INTERNAL' });
    expect(line.msg).toMatch(new RegExp(`^Cannot find module '.*${missing.replace('.', '\\.')}'`));
    expect(r.stderr).not.toContain(TOKEN);
  }, 30_000);

  it('masks a token of the environment that the message holds', async () => {
    // The token in the folder's name: a message naming the path would echo it.
    const r = await run(['run', 'no-such-pipeline'], { QUOTELAKE_LOG_FORMAT: 'json', QUOTELAKE_TOKEN: missing.slice(0, -3) });
    expect(r.code).toBe(1);
    const line = JSON.parse(r.stderr.trim()) as { msg: string };
    expect(line.msg).toContain('Cannot find module');
    expect(line.msg).not.toContain(missing.slice(0, -3));
  }, 30_000);
});
