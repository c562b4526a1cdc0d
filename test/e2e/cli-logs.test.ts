/**
 * Logs through the built CLI (issue 15): `--log-level debug --log-format json` gives JSON lines an
 * operator can query (requests with endpoint, status and latency; commits; the run's start and
 * end, all with runId and pipeline), and the token is never printed, a one-character one included,
 * without masking every "x" of every word.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';
import { closedPort } from '../helpers/closed-port.js';
import { quickRetry } from './helpers/quick-retry.js';

const NOW = '2026-11-20T00:00:00Z';
const SPAN = ['--codes', 'BTCUSDT,ETHUSDT', '--since', '2026-11-19T00:00:00Z', '--clock', NOW];

type Line = Record<string, unknown>;

/** Every stderr line that is a log line, parsed; anything else that starts with `{` fails the test. */
function logLines(stderr: string): Line[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

/** Every string in a parsed line, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}


/** Runs `use` against a served emulator of these tokens, stopped afterwards. */
async function withEmulator<T>(tokens: Parameters<typeof serveChild>[0], use: (emu: ServedEmulator) => Promise<T>): Promise<T> {
  const emu = await serveChild(tokens, ['--clock', NOW]);
  try {
    return await use(emu);
  } finally {
    await emu.stop();
  }
}

// Every test has its own folders and emulators: they run at once (each mostly waits on its processes).
describe.concurrent('quotelake run --log-level debug --log-format json', () => {
  it('against the built-in emulator: request, commit and run lines, stable fields, parseable JSON lines, no token', async () => {
    const output = tempDir();
    const r = await runCli(['run', 'kline-backfill', ...SPAN, '--output', output, '--log-level', 'debug', '--log-format', 'json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    // Every stderr line is a JSON line (jq reads the file to its end); the first is the notice
    // about the built-in emulator, which belongs to the command, not to a run.
    expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'))).toEqual([]);
    const [notice, ...lines] = logLines(r.stderr);
    expect(notice).toEqual({
      level: 'warn',
      time: expect.stringMatching(/^2026-11-20T00:00:\d\d\.\d{3}Z$/),
      event: 'embedded-emulator',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      plan: 'professional',
      msg: expect.stringMatching(/^no base URL or token given: using the built-in emulator at http:\/\/127\.0\.0\.1:\d+ with the professional plan's demo token/),
    });
    const start = lines.find((l) => l.event === 'run-start')!;
    expect(start).toMatchObject({ level: 'info', msg: 'run started', pipeline: 'kline-backfill', source: 'kline-history', sink: 'parquet' });
    const runId = start.runId as string;
    expect(runId).toMatch(/^20261120T0000\d\dZ-/);
    for (const l of lines) {
      expect(l).toMatchObject({ runId, pipeline: 'kline-backfill' });
      expect(l.time).toMatch(/^2026-11-20T00:\d\d:\d\d\.\d{3}Z$/);
      expect(['debug', 'info', 'warn', 'error']).toContain(l.level);
    }
    const requests = lines.filter((l) => l.event === 'request');
    expect(requests.length).toBeGreaterThan(1);
    for (const q of requests) {
      expect(q).toMatchObject({ level: 'debug', endpoint: '/quote-b-api/kline', method: 'GET', status: 200, ret: 200, outcome: 'ok', attempt: 1 });
      expect(q.latencyMs).toEqual(expect.any(Number));
      expect(q.rows).toEqual(expect.any(Number));
    }
    expect(requests.map((q) => q.code).sort()).toContain('ETHUSDT');
    const commits = lines.filter((l) => l.event === 'commit');
    expect(commits.length).toBeGreaterThan(0);
    expect(commits[0]).toMatchObject({ level: 'info', dataset: 'kline', commit: 1 });
    expect(commits.reduce((n, c) => n + (c.rows as number), 0)).toBeGreaterThan(0);
    expect(lines.some((l) => l.event === 'checkpoint' && l.level === 'debug')).toBe(true);
    const end = lines.find((l) => l.event === 'run-end')!;
    expect(end).toMatchObject({ level: 'info', status: 'succeeded', requests: requests.length });
    expect(lines.at(-1)).toBe(end);
    // The built-in emulator's demo token.
    expect(r.stderr).not.toContain('demo-professional');
  });

  it('a one-character token on a flaky service: retries logged, "x" never shown as the token, words left whole', async () => {
    const output = tempDir();
    const r = await withEmulator([{ token: 'x', plan: 'professional', faults: '5xx=0.4' }], (emu) =>
      runCli(['run', quickRetry('kline-backfill'), ...SPAN, '--base-url', emu.url, '--token', 'x', '--plan', 'professional', '--output', output, '--log-level', 'debug', '--log-format', 'json']),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = logLines(r.stderr);
    const retries = lines.filter((l) => l.event === 'retry');
    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]).toMatchObject({ level: 'info', endpoint: '/quote-b-api/kline', code: 'QL_API_TRANSPORT' });
    expect(lines.filter((l) => l.event === 'request' && (l.status as number) >= 500).length).toBe(retries.length);
    // Not as a value, not in a query string, not as a word of any text.
    for (const s of lines.flatMap(strings)) {
      expect(s).not.toBe('x');
      expect(s).not.toMatch(/(^|[^A-Za-z0-9_-])x($|[^A-Za-z0-9_-])/);
    }
    // The summary's words keep their letters ("exit", not "e…it").
    expect(r.stderr).toContain('done (exit 0)');
    expect(r.stderr).not.toMatch(/e…it|une…pected/);
  });

  it('a long token in the environment never appears, pretty lines included', async () => {
    const token = 'sk-live-0123456789abcdef';
    const output = tempDir();
    const r = await withEmulator([{ token, plan: 'professional', faults: '5xx=0.3' }], (emu) =>
      runCli(['run', quickRetry('kline-backfill'), ...SPAN, '--base-url', emu.url, '--plan', 'professional', '--output', output, '--log-level', 'debug'], {
        env: { QUOTELAKE_TOKEN: token },
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\[2026-11-20T00:\d\d:\d\d\.\d{3}Z\] DEBUG: request \{"event":"request","endpoint":"\/quote-b-api\/kline"/m);
    expect(r.stderr).toMatch(/^\[2026-11-20T00:\d\d:\d\d\.\d{3}Z\] INFO: committed \{"event":"commit","dataset":"kline"/m);
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).not.toContain('0123456789abcdef');
  });

  it('several pipelines in one command: pretty lines name their pipeline, a single pipeline\'s do not', async () => {
    const dir = tempDir();
    const files = ['btc-hours', 'eth-hours'].map((name, i) => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, `name: ${name}\nsource:\n  type: kline-history\n  codes: [${i === 0 ? 'BTCUSDT' : 'ETHUSDT'}]\n  intervals: [1h]\n  since: 1d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
      return file;
    });
    // Two independent commands: at once.
    const [both, one] = await Promise.all([
      runCli(['run', ...files, '--clock', NOW, '--output', join(dir, 'out'), '--log-level', 'info', '--quiet']),
      runCli(['run', 'kline-backfill', ...SPAN, '--output', tempDir(), '--log-level', 'info', '--quiet']),
    ]);
    expect(both.code, both.stderr).toBe(0);
    const starts = both.stderr.split('\n').filter((l) => l.includes('run started'));
    expect(starts).toEqual([
      expect.stringMatching(/^\[2026-11-20T00:00:\d\d\.\d{3}Z\] INFO: btc-hours: run started \{/),
      expect.stringMatching(/^\[2026-11-20T00:00:\d\d\.\d{3}Z\] INFO: eth-hours: run started \{/),
    ]);
    // Every line of a run is named (commits too), and none carries the field twice.
    expect(both.stderr.split('\n').filter((l) => / INFO: [a-z]+-hours: committed \{/.test(l)).length).toBeGreaterThanOrEqual(2);
    for (const l of starts) expect(l).not.toContain('"pipeline"');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr.split('\n').filter((l) => l.includes('run started'))).toEqual([expect.stringMatching(/\] INFO: run started \{/)]);
  }, 60_000);

  it('rejected records dropped: a warn line of event rejected with how many and to "dropped", as diverted ones get', async () => {
    const fixtures = join(ROOT, 'test/fixtures/pipelines');
    const [dropped, diverted] = await Promise.all([
      runCli(['run', join(fixtures, 'narrow-drop.yaml'), '--output', tempDir(), '--log-format', 'json', '--quiet', '--clock', NOW]),
      runCli(['run', join(fixtures, 'narrow-decimals.yaml'), '--output', tempDir(), '--log-format', 'json', '--quiet', '--clock', NOW]),
    ]);
    expect([dropped.code, diverted.code]).toEqual([3, 3]);
    const rejectedLines = (r: { stderr: string }) => logLines(r.stderr).filter((l) => l.event === 'rejected');
    expect(rejectedLines(diverted)).toEqual([expect.objectContaining({ level: 'warn', rejected: 2, to: expect.stringMatching(/_rejected\/$/) })]);
    expect(rejectedLines(dropped)).toEqual([expect.objectContaining({ level: 'warn', rejected: 2, to: 'dropped', msg: '2 rejected records dropped (onReject: drop)' })]);
  }, 60_000);

  it('QUOTELAKE_LOG_FORMAT chooses the format; a wrong value is a usage error', async () => {
    const output = tempDir();
    const json = await runCli(['run', 'kline-backfill', ...SPAN, '--output', output, '--log-level', 'info', '--quiet'], { env: { QUOTELAKE_LOG_FORMAT: 'json' } });
    expect(json.code, json.stderr).toBe(0);
    expect(logLines(json.stderr).map((l) => l.event)).toEqual(expect.arrayContaining(['run-start', 'commit', 'run-end']));
    const wrong = await runCli(['run', 'kline-backfill', ...SPAN, '--output', output], { env: { QUOTELAKE_LOG_FORMAT: 'xml' } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('QUOTELAKE_LOG_FORMAT must be pretty or json, not "xml"');
  });

  it('a failed run: with json an error line carries the code and err with its stack and cause chain; with pretty and debug the stack (source files and lines) and causes follow the failure', async () => {
    const token = 'sk-live-0123456789abcdef';
    const port = await closedPort();
    const args = ['run', quickRetry('kline-backfill'), ...SPAN, '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--quiet'];
    // Two independent failing runs (each goes through its retries): at once.
    const [json, pretty] = await Promise.all([
      runCli([...args, '--output', tempDir(), '--log-format', 'json'], { env: { QUOTELAKE_TOKEN: token } }),
      runCli([...args, '--output', tempDir(), '--log-level', 'debug'], { env: { QUOTELAKE_TOKEN: token } }),
    ]);
    expect(json.code, json.stderr).toBe(1);
    const failed = logLines(json.stderr).find((l) => l.event === 'run-error')!;
    expect(failed).toMatchObject({ level: 'error', code: 'QL_CONNECTION_REFUSED', pipeline: 'kline-backfill' });
    const err = failed.err as { type: string; code: string; stack: string; cause: { code: string; message: string } };
    expect(err).toMatchObject({ type: 'TransportError', code: 'QL_API_TRANSPORT', cause: { code: 'ECONNREFUSED' } });
    expect(err.stack).toMatch(/^TransportError: .*ECONNREFUSED[^\n]*\n\s+at /);
    expect(pretty.code, pretty.stderr).toBe(1);
    expect(pretty.stderr).toMatch(/quotelake: \/quote-b-api\/kline: nothing accepts connections at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(pretty.stderr).toMatch(/\nTransportError: \/quote-b-api\/kline: request failed: ECONNREFUSED[^\n]*\n\s+at /);
    expect(pretty.stderr).toMatch(/\ncaused by: Error: ECONNREFUSED/);
    // With debug, the stack names quotelake's source files (the bundle's source maps), not its chunks.
    expect(pretty.stderr).toMatch(/\n\s+at .*\/src\/api\/http-transport\.ts:\d+:\d+/);
    for (const r of [json, pretty]) expect(r.stderr).not.toContain(token);
  });
});
