/**
 * A service that echoes the request (and so the token) into the free text of a halt record: the
 * record is rejected with QL_SECRET_ECHOED and the token masked in `_rejected/`; the other records
 * are written, and no file of the output holds the token. Through the built CLI, on a frozen instant.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T10:00:00Z';
const TOKEN = 'tok~echoed (secret) 7f3a9c';

function record(symbol: string, reason: string): Record<string, string> {
  return { symbol, symbolName: 'Name', haltReason: reason, haltDate: '2026-11-19', haltTime: '09:30:00', haltPeriod: 'all day', resumeDate: '2026-11-20', resumeTime: '09:30:00', publishDate: '2026-11-18 18:00:00' };
}

let server: Server | undefined;
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('a halt record that holds the token', () => {
  it('is rejected with the token masked; the rest is written and no file holds the token', async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const data = [record('600001', `see ${req.url}`), record('600002', `token was ${url.searchParams.get('token')}`), record('600003', 'plain')];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, timestamp: '2026-11-20T18:00:00', totalCount: data.length, data }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const dir = tempDir();
    const pipeline = join(dir, 'halts-sse.yaml');
    writeFileSync(pipeline, 'name: halts-sse\nsource:\n  type: trading-halts\n  exchanges: [sse]\ntransforms:\n  - type: normalize-halts\nsink:\n  type: parquet\n');
    const output = join(dir, 'out');
    const r = await runCli(['run', pipeline, '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--output', output, '--clock', NOW, '--json'], { env: { QUOTELAKE_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(3);
    const rows = await readLakeRecords(output, 'halt', 'parquet');
    expect(rows.map((row) => row.symbol)).toEqual(['600003']);
    const rejected = allFiles(output).filter((f) => f.includes('_rejected'));
    const lines = rejected.flatMap((f) => readFileSync(f, 'utf8').trim().split('\n')).map((l) => JSON.parse(l) as { code: string; field: string; value: string });
    expect(lines.map((l) => [l.code, l.field])).toEqual([
      ['QL_SECRET_ECHOED', 'haltReason'],
      ['QL_SECRET_ECHOED', 'haltReason'],
    ]);
    expect(lines.map((l) => l.value).sort()).toEqual(['see /api/suspension/sse?token=tok~…', 'token was tok~…']);
    // Every form the token takes, in every file the run wrote and in what it printed.
    const forms = [TOKEN, encodeURIComponent(TOKEN), new URLSearchParams({ t: TOKEN }).toString().slice(2)];
    for (const f of allFiles(dir)) for (const form of forms) expect(readFileSync(f, 'latin1').includes(form), `${f} holds ${form}`).toBe(false);
    for (const form of forms) expect(r.stdout + r.stderr).not.toContain(form);
  });
});
