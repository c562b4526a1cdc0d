/**
 * Only `stdout` (lower case) and `-` name standard output in an ndjson sink's `path`. `STDOUT` or
 * `Stdout` is refused with a hint, through the built CLI: taken as a file name, it left a stray
 * file called STDOUT in the output folder and nothing on stdout, with exit 0.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

// A dead service: a request would fail with exit 1, so exit 2 shows the check came first.
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl', '--plan', 'free'];

function ndjsonPipeline(path: string): string {
  const file = join(tempDir('ql-stdout-spelling-'), 'p.yaml');
  writeFileSync(file, `name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: ndjson\n  path: ${path}\n`);
  return file;
}

describe('ndjson sink.path spelled STDOUT', () => {
  it('validate and run refuse it at its line with "did you mean stdout?"; run makes no file', async () => {
    const upper = ndjsonPipeline('STDOUT');
    const mixed = ndjsonPipeline('Stdout');
    const cwd = tempDir('ql-stdout-spelling-cwd-');
    const [validate, run] = await Promise.all([runCli(['validate', upper, mixed]), runCli(['run', upper, ...SERVICE, '--output', 'out'], { cwd })]);
    expect(validate.code, validate.stderr).toBe(2);
    expect(validate.stderr).toContain(`${upper}:9:9: sink.path: "STDOUT" is not standard output (only stdout, in lower case, or - is): did you mean stdout? For a file of that name, write ./STDOUT`);
    expect(validate.stderr).toContain(`${mixed}:9:9: sink.path: "Stdout" is not standard output`);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a file of that name is still possible, written ./STDOUT', async () => {
    const r = await runCli(['validate', ndjsonPipeline('./STDOUT')]);
    expect(r.code, r.stderr).toBe(0);
  });
});
