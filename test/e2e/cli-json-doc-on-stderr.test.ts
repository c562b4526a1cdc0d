/**
 * With NDJSON data on stdout, `run --json` prints its document on stderr after the log lines. The
 * README's way to a stderr a JSON reader takes whole: `--log-format json --quiet`. Then every
 * stderr line before the document is one JSON value, and the document (indented, from a line `{`
 * alone) is the last one: for a run refused by the service and for a command line refused before
 * any run. With the default `pretty`, a failure's `quotelake:` / `hint:` pair comes first, and the
 * document is split off at its `{` line, as the README says.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { runCli } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

let emu: ServedEmulator;
beforeAll(async () => {
  emu = await serveChild([]);
});
afterAll(() => emu.stop());

/** The JSON lines before the document, and the document (from its `{` line). Throws on any other line. */
function jsonStderr(stderr: string): { lines: Record<string, unknown>[]; doc: Record<string, unknown> } {
  const all = stderr.split('\n');
  const at = all.indexOf('{');
  expect(at, stderr).toBeGreaterThanOrEqual(0);
  const lines = all.slice(0, at).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, doc: JSON.parse(all.slice(at).join('\n')) as Record<string, unknown> };
}

describe('run --json with NDJSON on stdout', () => {
  it('--log-format json --quiet: stderr holds JSON only, for a failed run and for a refused command line', async () => {
    const json = ['--json', '--log-format', 'json', '--quiet', '--base-url', emu.url, '--plan', 'professional'];
    const [refusedToken, badCode] = await Promise.all([
      runCli(['run', 'trades-ndjson', ...json, '--token', 'no-such-token-SECRET']),
      runCli(['run', 'trades-ndjson', ...json, '--token', 'demo-professional', '--codes', 'btcusdt']),
    ]);
    expect(refusedToken.code).toBe(1);
    expect(refusedToken.stdout).toBe('');
    const failed = jsonStderr(refusedToken.stderr);
    expect(failed.lines.map((l) => l.event)).toEqual(['run-error']);
    expect(failed.doc).toMatchObject({ command: 'run', exitCode: 1, runs: [{ status: 'failed', error: { code: 'QL_API_TOKEN_INVALID' } }] });
    expect(refusedToken.stderr).not.toContain('no-such-token-SECRET');

    expect(badCode.code).toBe(2);
    expect(badCode.stdout).toBe('');
    const refused = jsonStderr(badCode.stderr);
    expect(refused.lines.map((l) => l.event)).toEqual(['error']);
    expect(refused.doc).toMatchObject({ command: 'run', exitCode: 2, error: { code: 'QL_USAGE' } });
  });

  it('pretty (the default): the error pair, then the document from its line "{"', async () => {
    const r = await runCli(['run', 'trades-ndjson', '--json', '--base-url', emu.url, '--plan', 'professional', '--token', 'no-such-token-SECRET']);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    const at = lines.indexOf('{');
    expect(lines[0]).toMatch(/^quotelake: \/quote-b-api\/trade-tick: ret 401 token invalid/);
    expect(lines[1]).toMatch(/^ {2}hint: /);
    expect(at).toBe(2);
    expect(JSON.parse(lines.slice(at).join('\n'))).toMatchObject({ exitCode: 1 });
  });
});
