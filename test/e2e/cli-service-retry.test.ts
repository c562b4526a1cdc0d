/**
 * `service.retry` in a pipeline file: how often and how patiently a request that failed for a
 * reason that may pass is tried again, through the built CLI against `quotelake serve` answering
 * every request with a 5xx. The default (6 attempts) is what the other end-to-end tests meet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const NOW = '2026-11-20T00:00:00Z';
const TOKEN = 'tok-retry-always-5xx';

function pipelineFile(retry: string): string {
  const dir = tempDir('ql-retry-');
  const file = join(dir, 'retry.yaml');
  writeFileSync(
    file,
    ['name: retry-trades', 'service:', '  retry:', ...retry.split('\n').map((l) => `    ${l}`), 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', ''].join('\n'),
  );
  return file;
}

/** The `retry` log events of a run (JSON log lines on stderr). */
function retries(stderr: string): { retry: number; waitMs: number }[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { event?: string; retry: number; waitMs: number })
    .filter((e) => e.event === 'retry');
}

describe('service.retry', () => {
  let emu: ServedEmulator;
  beforeAll(async () => {
    emu = await serveChild([{ token: TOKEN, plan: 'professional', faults: '5xx=1' }], ['--clock', NOW]);
  });
  afterAll(async () => {
    await emu.stop();
  });

  const run = (file: string) =>
    runCli(['run', file, '--base-url', emu.url, '--plan', 'professional', '--output', tempDir(), '--clock', NOW, '--log-level', 'info', '--log-format', 'json'], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });

  it('sets the attempts and the waits: 3 attempts, each wait at most maxDelayMs', async () => {
    const r = await run(pipelineFile('attempts: 3\nbaseDelayMs: 5\nmaxDelayMs: 20'));
    expect(r.code, r.stderr).toBe(1);
    const seen = retries(r.stderr);
    expect(seen.map((e) => e.retry)).toEqual([1, 2]);
    for (const e of seen) expect(e.waitMs).toBeLessThanOrEqual(20);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('attempts: 1 never retries', async () => {
    const r = await run(pipelineFile('attempts: 1'));
    expect(r.code, r.stderr).toBe(1);
    expect(retries(r.stderr)).toEqual([]);
    // One attempt is no give-up after several: the message is the answer's alone.
    expect(r.stderr).toMatch(/HTTP 50[23] \(server fault, trace [^)]+\)/);
    expect(r.stderr).not.toContain(' attempts over ');
  });

  it('a request that failed every attempt says how many were made and over how long (default: 6)', async () => {
    const r = await runCli(['run', pipelineFile('baseDelayMs: 2\nmaxDelayMs: 20'), '--base-url', emu.url, '--plan', 'professional', '--output', tempDir(), '--clock', NOW], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^quotelake: \/quote-b-api\/trade-tick: HTTP 50[23] \(server fault, trace [^)]+\); after 6 attempts over \d+\.\d s$/);
    // The same in the run-error log line, its code unchanged.
    const json = await run(pipelineFile('attempts: 3\nbaseDelayMs: 2\nmaxDelayMs: 20'));
    const line = json.stderr.split('\n').find((l) => l.includes('"event":"run-error"'));
    const failure = JSON.parse(line!) as { code: string; err: { message: string } };
    expect(failure.code).toBe('QL_API_TRANSPORT');
    expect(failure.err.message).toMatch(/; after 3 attempts over \d+\.\d s$/);
  });

  it('a setting it cannot use is refused at its line, before any request', async () => {
    const file = pipelineFile('attempts: 0\nbaseDelayMs: 500\nmaxDelayMs: 100');
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:4:15: service.retry.attempts: 0 must be at least 1\n`);
    expect(r.stderr).toContain(`${file}:5:18: service.retry.baseDelayMs: 500 is more than maxDelayMs (100): the longest wait caps every wait\n`);
  });
});
