/**
 * A request over its timeout, through the built CLI against `quotelake serve` with slow answers:
 * the error says how long it waited and which setting to raise (undici's own words, "Headers
 * Timeout Error", named neither), for the headers and for a body that stalls. The stall is long
 * (1.5 s) as undici checks its timers about every half second.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const NOW = '2026-11-20T00:00:00Z';
const SLOW_HEADERS = 'tok-timeout-slow-headers';
const SLOW_BODY = 'tok-timeout-slow-body';

function pipelineFile(timeouts: string): string {
  const file = join(tempDir('ql-timeout-'), 'slow.yaml');
  const lines = ['name: slow', 'service:', '  retry:', '    attempts: 1', '  timeouts:', `    ${timeouts}`, 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('a request over its timeout', () => {
  let emu: ServedEmulator;
  beforeAll(async () => {
    emu = await serveChild(
      [
        { token: SLOW_HEADERS, plan: 'professional', faults: 'latency=1500ms' },
        { token: SLOW_BODY, plan: 'professional', faults: 'drip=1500ms' },
      ],
      ['--clock', NOW],
    );
  });
  afterAll(async () => {
    await emu.stop();
  });

  const run = (file: string, token: string) =>
    runCli(['run', file, '--base-url', emu.url, '--plan', 'professional', '--output', tempDir(), '--clock', NOW, '--json'], { env: { QUOTELAKE_TOKEN: token } });

  it('no answer headers in time: exit 1 naming the wait and service.timeouts.headersMs', async () => {
    const r = await run(pipelineFile('headersMs: 300'), SLOW_HEADERS);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('quotelake: /quote-b-api/trade-tick: request failed: no answer within 300 ms (service.timeouts.headersMs; UND_ERR_HEADERS_TIMEOUT)\n');
    expect(r.stderr).toContain('hint: a slow service or network: raise service.timeouts.headersMs in the pipeline (100 to 3600000 ms)');
    expect(r.stderr).not.toContain('Headers Timeout Error');
    expect(r.stderr).not.toContain(SLOW_HEADERS);
  }, 30_000);

  it('a body that stops between chunks: exit 1 naming the wait and service.timeouts.bodyMs', async () => {
    const r = await run(pipelineFile('bodyMs: 150'), SLOW_BODY);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('request failed: the answer stopped: no data for 150 ms (service.timeouts.bodyMs; UND_ERR_BODY_TIMEOUT)\n');
    expect(r.stderr).toContain('hint: a slow service or network: raise service.timeouts.bodyMs in the pipeline');
  }, 30_000);
});
