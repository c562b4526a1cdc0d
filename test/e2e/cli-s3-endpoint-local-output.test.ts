/**
 * `--s3-endpoint` with an output that is a folder was silently ignored: the run wrote to the local
 * folder, exit 0, while its author meant the lake to be on that store. Now a usage error (exit 2)
 * naming both, before anything is written; AWS_ENDPOINT_URL (ambient, set for other tools) is not
 * refused. The built CLI and the embedded emulator; no store is needed, none is reached.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const ENDPOINT = 'http://127.0.0.1:9';
const MESSAGE = `quotelake: --s3-endpoint ${ENDPOINT} is for an s3:// output, and the output is a folder (lake): it would be ignored\n`;
const HINT = '  hint: give --output s3://bucket/prefix to write to that store, or drop --s3-endpoint to write to the folder\n';

describe('--s3-endpoint with a folder as the output', () => {
  it.each([
    ['run', ['run', 'kline-update', '--codes', 'BTCUSDT', '--output', 'lake', '--clock', NOW]],
    ['plan', ['plan', 'kline-update', '--codes', 'BTCUSDT', '--output', 'lake', '--clock', NOW]],
    ['compact', ['compact', '--output', 'lake']],
    ['vacuum', ['vacuum', '--output', 'lake']],
    ['repair', ['repair', '--output', 'lake', '--dry-run']],
    ['inspect', ['inspect', 'lake']],
    ['state show', ['state', 'show', '--output', 'lake']],
    ['quota', ['quota', '--output', 'lake']],
  ])('%s is exit 2 naming the endpoint and the folder, and writes nothing', async (_name, args) => {
    const cwd = tempDir('ql-endpoint-local-');
    const result = await runCli([...args, '--s3-endpoint', ENDPOINT], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(MESSAGE + HINT);
    expect(existsSync(join(cwd, 'lake'))).toBe(false);
  });

  it('AWS_ENDPOINT_URL in the environment is not refused: the run writes to the folder', async () => {
    const cwd = tempDir('ql-endpoint-env-');
    const result = await runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--output', 'lake', '--clock', NOW, '--quiet'], { cwd, env: { AWS_ENDPOINT_URL: ENDPOINT } });
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, 'lake', 'kline'))).toBe(true);
  });
});
