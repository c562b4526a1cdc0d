/**
 * A request over its timeout, through the built CLI against `quotelake serve` with slow answers:
 * the error says how long it waited and which setting to raise (undici's own words, "Headers
 * Timeout Error", named neither), for the headers, for a body that stalls and for a connection
 * that is not up in time (whose "cannot reach" named the address alone). Each wait is under half a second and each answer would come at 400 ms:
 * undici's own timers (checked about every half second) let these requests succeed, so a failure
 * here is a timeout fired before the answer could have come.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const NOW = '2026-11-20T00:00:00Z';
const SLOW_HEADERS = 'tok-timeout-slow-headers';
const SLOW_BODY = 'tok-timeout-slow-body';

function pipelineFile(timeouts: string, attempts = 1): string {
  const file = join(tempDir('ql-timeout-'), 'slow.yaml');
  const lines = ['name: slow', 'service:', '  retry:', `    attempts: ${attempts}`, '    baseDelayMs: 100', '  timeouts:', `    ${timeouts}`, 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** The outcome of each attempt, from the debug log's request events. */
function attemptOutcomes(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"event":"request"'))
    .map((line) => (JSON.parse(line) as { outcome: string }).outcome);
}

describe('a request over its timeout', () => {
  let emu: ServedEmulator;
  beforeAll(async () => {
    emu = await serveChild(
      [
        { token: SLOW_HEADERS, plan: 'professional', faults: 'latency=400ms' },
        { token: SLOW_BODY, plan: 'professional', faults: 'drip=400ms' },
      ],
      ['--clock', NOW],
    );
  });
  afterAll(async () => {
    await emu.stop();
  });

  const run = (file: string, token: string, baseUrl = emu.url) =>
    runCli(['run', file, '--base-url', baseUrl, '--plan', 'professional', '--output', tempDir(), '--clock', NOW, '--log-level', 'debug'], {
      env: { QUOTELAKE_TOKEN: token, QUOTELAKE_LOG_FORMAT: 'json' },
    });

  it('no answer headers in time: every attempt fails, exit 1 naming the wait and service.timeouts.headersMs', async () => {
    const r = await run(pipelineFile('headersMs: 150', 2), SLOW_HEADERS);
    expect(r.code, r.stderr).toBe(1);
    expect(attemptOutcomes(r.stderr)).toEqual(['transport-error', 'transport-error']);
    expect(r.stderr).toContain('/quote-b-api/trade-tick: request failed: no answer within 150 ms (service.timeouts.headersMs; UND_ERR_HEADERS_TIMEOUT); after 2 attempts');
    expect(r.stderr).toContain('raise service.timeouts.headersMs in the pipeline (100 to 3600000 ms)');
    expect(r.stderr).not.toContain('Headers Timeout Error');
    expect(r.stderr).not.toContain(SLOW_HEADERS);
  }, 30_000);

  it('a body that stops between chunks: exit 1 naming the wait and service.timeouts.bodyMs', async () => {
    const r = await run(pipelineFile('bodyMs: 150'), SLOW_BODY);
    expect(r.code, r.stderr).toBe(1);
    expect(attemptOutcomes(r.stderr)).toEqual(['transport-error']);
    expect(r.stderr).toContain('request failed: the answer stopped: no data for 150 ms (service.timeouts.bodyMs; UND_ERR_BODY_TIMEOUT)');
    expect(r.stderr).toContain('raise service.timeouts.bodyMs in the pipeline');
  }, 30_000);

  describe('a connection not up in time', () => {
    // Accepts TCP but never answers the TLS handshake, and hangs up at 400 ms.
    let silent: Server;
    let url: string;
    beforeAll(async () => {
      silent = createServer((socket: Socket) => {
        socket.on('error', () => undefined);
        setTimeout(() => socket.destroy(), 400);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(silent.address() as { port: number }).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => silent.close(resolve));
    });

    it('fails with the connect timeout of service.timeouts.connectMs, not the hang-up after it', async () => {
      const r = await run(pipelineFile('connectMs: 150'), 'tok-timeout-connect', url);
      expect(r.code, r.stderr).toBe(1);
      expect(attemptOutcomes(r.stderr)).toEqual(['transport-error']);
      expect(r.stderr).toContain(
        `/quote-b-api/trade-tick: cannot reach 127.0.0.1:${new URL(url).port}: not connected within 150 ms (service.timeouts.connectMs; UND_ERR_CONNECT_TIMEOUT)`,
      );
      expect(r.stderr).toContain('raise service.timeouts.connectMs in the pipeline (100 to 3600000 ms)');
      expect(r.stderr).not.toContain('ECONNRESET');
      expect(r.stderr).not.toContain('tok-timeout-connect');
    }, 30_000);
  });
});
