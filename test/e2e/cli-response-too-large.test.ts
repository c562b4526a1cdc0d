/**
 * An answer over the client's 16 MiB cap (QL_API_TOO_LARGE) through the built CLI: the hint says
 * what a command-line user can change (a halt year in pages: `pageSize`), since `maxResponseBytes`
 * is a library option no pipeline or flag sets, and a run again unchanged would fail the same way.
 */
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T15:00:00Z';

let server: Server | undefined;
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('an answer larger than the client reads', () => {
  it('a halt year over 16 MiB fails (exit 1) with a hint to fetch it in pages, not to raise a setting the CLI lacks', async () => {
    const body = JSON.stringify({ success: true, timestamp: '2026-11-20T15:00:00', totalCount: 1, data: [{ symbol: 'AAA', symbolName: 'x'.repeat(17 * 1024 * 1024) }] });
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const dir = tempDir();
    const pipeline = join(dir, 'halts-nasdaq.yaml');
    writeFileSync(pipeline, 'name: halts-nasdaq\nsource:\n  type: trading-halts\n  exchanges: [nasdaq]\ntransforms:\n  - type: normalize-halts\nsink:\n  type: parquet\n');
    const r = await runCli(['run', pipeline, '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--output', join(dir, 'out'), '--clock', NOW], {
      env: { QUOTELAKE_TOKEN: 'too-large-token' },
    });
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stderr.split('\n');
    const error = lines.findIndex((l) => l.startsWith('quotelake: /api/suspension/nasdaq: response refused: more than 16777216 bytes'));
    expect(error, r.stderr).toBeGreaterThanOrEqual(0);
    expect(lines[error]).not.toContain('raise maxResponseBytes');
    expect(lines[error + 1]).toBe(
      '  hint: a year of halts in one answer is more than the client reads (16 MiB): set the trading-halts source\'s pageSize (e.g. 500) to fetch it in pages; the same command unchanged fails the same way',
    );
  });
});
