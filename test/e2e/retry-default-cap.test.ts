/**
 * `service.retry.baseDelayMs` is at most maxDelayMs, as README says, also when maxDelayMs is left
 * out and keeps its default: a base above the default cap was accepted and silently capped.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../../src/api/client.js';
import { DEFAULT_MAX_DELAY_MS } from '../../src/config/service-retry.js';
import { runCli, tempDir } from './helpers/cli.js';

function pipelineFile(retry: string): string {
  const file = join(tempDir('ql-retry-cap-'), 'retry.yaml');
  const lines = ['name: retry-cap', 'service:', '  retry:', ...retry.split('\n').map((l) => `    ${l}`), 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('service.retry.baseDelayMs against the default maxDelayMs', () => {
  it('the schema checks against the cap the client applies', () => {
    expect(DEFAULT_MAX_DELAY_MS).toBe(DEFAULT_RETRY.maxDelayMs);
  });

  it('a base above the default cap is refused at its line, naming the default; one at it passes', async () => {
    const over = pipelineFile(`baseDelayMs: ${DEFAULT_MAX_DELAY_MS + 5000}`);
    const [refused, atCap] = await Promise.all([runCli(['validate', over]), runCli(['validate', pipelineFile(`baseDelayMs: ${DEFAULT_MAX_DELAY_MS}`)])]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${over}:4:18: service.retry.baseDelayMs: 20000 is more than maxDelayMs (15000, its default): the longest wait caps every wait\n`);
    expect(atCap.code, atCap.stderr).toBe(0);
  });
});
