/**
 * A service never reached (connection refused, or not connected within service.timeouts.connectMs)
 * is retried like any transport failure, and its message says how many attempts were made and over
 * how long, as a reset connection's does (`…; after 3 attempts over 0.4 s`). The CLI's own words for
 * these failures ("nothing accepts connections at …", "cannot reach …") used to drop that tail.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/closed-port.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T00:00:00Z';
const ATTEMPTS = 3;

function pipelineFile(): string {
  const file = join(tempDir('ql-unreached-'), 'unreached.yaml');
  const lines = ['name: unreached', 'service:', '  retry:', `    attempts: ${ATTEMPTS}`, '    baseDelayMs: 100', '  timeouts:', '    connectMs: 150', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

interface Outcome {
  code: number | null;
  stderr: string;
  error: { code: string; message: string };
  /** The message of the `run-error` JSON log line. */
  logged: { code: string; msg: string };
}

async function runAgainst(baseUrl: string): Promise<Outcome> {
  const args = ['run', pipelineFile(), '--base-url', baseUrl, '--token', 'tok-unreached', '--plan', 'professional', '--clock', NOW];
  const [text, json] = await Promise.all([
    runCli([...args, '--output', tempDir(), '--json', '--quiet']),
    runCli([...args, '--output', tempDir(), '--quiet'], { env: { QUOTELAKE_LOG_FORMAT: 'json' } }),
  ]);
  const line = json.stderr.split('\n').find((l) => l.includes('"event":"run-error"'));
  expect(line, json.stderr).toBeDefined();
  const logged = JSON.parse(line!) as { code: string; msg: string };
  return { code: text.code, stderr: text.stderr, error: (JSON.parse(text.stdout) as { runs: { error: Outcome['error'] }[] }).runs[0]!.error, logged };
}

const TAIL = new RegExp(`; after ${ATTEMPTS} attempts over \\d+(\\.\\d)? s$`);

describe('a service never reached, after its retries', () => {
  it('connection refused: the message ends with the attempts and their time', async () => {
    const port = await closedPort();
    const r = await runAgainst(`http://127.0.0.1:${port}`);
    expect(r.code, r.stderr).toBe(1);
    expect(r.error.code).toBe('QL_CONNECTION_REFUSED');
    expect(r.error.message).toMatch(new RegExp(`^/quote-b-api/trade-tick: nothing accepts connections at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    expect(r.error.message).toMatch(TAIL);
    expect(r.stderr).toContain(`quotelake: ${r.error.message}\n`);
    // A run of its own: its attempts took their own time.
    expect(r.logged.code).toBe('QL_CONNECTION_REFUSED');
    expect(r.logged.msg.replace(TAIL, '')).toBe(r.error.message.replace(TAIL, ''));
    expect(r.logged.msg).toMatch(TAIL);
  }, 30_000);

  describe('not connected in time', () => {
    // Takes the TCP connection and never answers the TLS handshake.
    let silent: Server;
    let url: string;
    beforeAll(async () => {
      silent = createServer((socket: Socket) => {
        socket.on('error', () => undefined);
        setTimeout(() => socket.destroy(), 5000).unref();
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(silent.address() as { port: number }).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => silent.close(resolve));
    });

    it('the connect timeout\'s message ends with the attempts and their time, as a refusal\'s does', async () => {
      const r = await runAgainst(url);
      expect(r.code, r.stderr).toBe(1);
      expect(r.error.code).toBe('QL_NETWORK_UNREACHABLE');
      expect(r.error.message).toMatch(
        new RegExp(`^/quote-b-api/trade-tick: cannot reach 127\\.0\\.0\\.1:${new URL(url).port}: not connected within 150 ms \\(service\\.timeouts\\.connectMs; UND_ERR_CONNECT_TIMEOUT\\)`),
      );
      expect(r.error.message).toMatch(TAIL);
      expect(r.stderr).toContain(`quotelake: ${r.error.message}\n`);
      // A run of its own: its attempts took their own time.
    expect(r.logged.code).toBe('QL_NETWORK_UNREACHABLE');
    expect(r.logged.msg.replace(TAIL, '')).toBe(r.error.message.replace(TAIL, ''));
    expect(r.logged.msg).toMatch(TAIL);
    }, 30_000);
  });
});
