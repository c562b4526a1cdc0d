/**
 * With --log-format json, stderr is JSON lines and nothing else (with --quiet, which leaves out the
 * progress and the summary): the notice about the built-in emulator (cli-logs.test.ts), a failure
 * before the run, a failed run, a signal's notice and Node's own warnings are each one JSON line,
 * so `jq` and a log collector read the file to its end. A person's terminal (pretty) keeps the
 * plain lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { closedPort } from '../helpers/closed-port.js';
import { quickRetry } from './helpers/quick-retry.js';

const NOW = '2026-11-20T00:00:00Z';
const WARN_ON_FIRST_REQUEST = fileURLToPath(new URL('../helpers/warn-on-first-request.mjs', import.meta.url));

type Line = Record<string, unknown>;

/** Every non-empty stderr line parsed as JSON: a line that is not one fails the test. */
function jsonLines(stderr: string): Line[] {
  return stderr
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`not a JSON line on stderr: ${l}`);
      }
    });
}

function badPipeline(): string {
  const file = join(tempDir(), 'bad.yaml');
  writeFileSync(file, 'name: bad\nsource:\n  type: nope\n');
  return file;
}

describe('--log-format json: stderr is JSON lines only', () => {
  it('a pipeline file that does not parse: one error line with its code, hint, place and err; exit 2', async () => {
    const file = badPipeline();
    const r = await runCli(['run', file, '--output', tempDir(), '--clock', NOW, '--log-format', 'json', '--quiet']);
    expect(r.code, r.stderr).toBe(2);
    const lines = jsonLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      event: 'error',
      code: 'QL_CONFIG',
      hint: expect.stringContaining('quotelake validate'),
      msg: expect.stringContaining('bad.yaml:3:9: source.type: unknown type "nope"'),
      err: { type: 'PipelineConfigError', code: 'QL_CONFIG' },
    });
    expect(lines[0]!.time).toEqual(expect.any(String));
  });

  it('QUOTELAKE_LOG_FORMAT=json does the same for a command that logs, and nothing for one that does not', async () => {
    const file = badPipeline();
    const run = await runCli(['run', file, '--output', tempDir()], { env: { QUOTELAKE_LOG_FORMAT: 'json' } });
    expect(run.code, run.stderr).toBe(2);
    expect(jsonLines(run.stderr).map((l) => [l.event, l.code])).toEqual([['error', 'QL_CONFIG']]);
    // --log-format on the command line wins over the environment.
    const pretty = await runCli(['run', file, '--output', tempDir(), '--log-format', 'pretty'], { env: { QUOTELAKE_LOG_FORMAT: 'json' } });
    expect(pretty.stderr).toMatch(/^quotelake: 2 problems in the pipeline:\n/);
    expect(pretty.stderr).toMatch(/\n {2}hint: fix the pipeline file/);
    // validate has no log: its failure stays the pair a person reads.
    const validate = await runCli(['validate', file], { env: { QUOTELAKE_LOG_FORMAT: 'json' } });
    expect(validate.code).toBe(2);
    expect(validate.stderr).toMatch(/^quotelake: /);
  });

  it('a run that fails (nothing listens at the base URL): its run-error line, no plain pair, no token; exit 1', async () => {
    const token = 'sk-json-0123456789abcdef';
    const r = await runCli(
      ['run', quickRetry('kline-backfill'), '--codes', 'BTCUSDT', '--since', '1d', '--clock', NOW, '--output', tempDir(), '--base-url', `http://127.0.0.1:${await closedPort()}`, '--plan', 'professional', '--log-format', 'json', '--quiet'],
      { env: { QUOTELAKE_TOKEN: token } },
    );
    expect(r.code, r.stderr).toBe(1);
    const lines = jsonLines(r.stderr);
    const failure = lines.find((l) => l.event === 'run-error')!;
    expect(failure).toMatchObject({ level: 'error', code: 'QL_CONNECTION_REFUSED', pipeline: 'kline-backfill', hint: expect.stringContaining('--base-url') });
    expect(failure.time).toMatch(/^2026-11-20T00:/);
    expect(lines.filter((l) => l.level === 'error')).toEqual([failure]);
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).not.toContain('0123456789abcdef');
  });

  it("Node's own process warnings and libraries' console lines: JSON lines (event node-warning, library-message), where pretty keeps their text", async () => {
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', NOW, '--quiet'];
    const env = { NODE_OPTIONS: `--import=${WARN_ON_FIRST_REQUEST}` };
    const json = await runCli([...args, '--output', tempDir(), '--log-format', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(jsonLines(json.stderr).filter((l) => l.event === 'node-warning')).toEqual([
      { level: 'warn', time: expect.stringMatching(/^2026-11-20T00:/), event: 'node-warning', name: 'TestWarning', code: 'QL_TEST_WARNING', msg: 'a warning of the test' },
    ]);
    // A library's own console line (ioredis' "[WARN] … a password was supplied") is a JSON line too.
    expect(jsonLines(json.stderr).filter((l) => l.event === 'library-message')).toEqual([
      { level: 'warn', time: expect.stringMatching(/^2026-11-20T00:/), event: 'library-message', msg: 'a library line of the test: 42' },
    ]);
    const pretty = await runCli([...args, '--output', tempDir()], { env });
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stderr).toMatch(/\(node:\d+\) \[QL_TEST_WARNING\] TestWarning: a warning of the test/);
    expect(pretty.stderr).toContain('[WARN] a library line of the test: 42');
  });

  it('SIGTERM: the stopping notice is a JSON line (event signal), and the run still stops with 130', async () => {
    const proc = startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--clock', NOW, '--output', tempDir(), '--log-level', 'debug', '--log-format', 'json', '--quiet'], {
      env: { QUOTELAKE_STOP_TIMEOUT: '120' },
    });
    await proc.waitForStderr(/"event":"request"/);
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(r.code, r.stderr).toBe(130);
    const lines = jsonLines(r.stderr);
    expect(lines.find((l) => l.event === 'signal')).toEqual({
      level: 'warn',
      time: expect.stringMatching(/^2026-11-20T00:/),
      event: 'signal',
      msg: 'SIGTERM: stopping after the current batch and committing finished work (send it again to quit at once)',
    });
    expect(lines.find((l) => l.event === 'run-end')).toMatchObject({ status: 'aborted' });
  }, 60_000);
});
