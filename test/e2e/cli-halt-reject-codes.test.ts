/**
 * Halt records a service gets wrong land in `_rejected/` under the codes README's table lists: a
 * required field left empty is QL_VALUE_MALFORMED (as for a bar), and a New York time so late in
 * year 9999 that its UTC instant is in year 10000 is QL_TIME_MALFORMED, never a TIMESTAMP in the
 * lake that readers cannot hold. Through the built CLI, against a service stub, on a frozen instant.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T15:00:00Z';
const BASE = {
  symbol: 'OK',
  symbolName: 'Name',
  haltDate: '2026-11-19',
  haltTime: '11:07:03',
  haltDateTime: '2026-11-19 11:07:03',
  sourceExchange: 'NASDAQ',
  haltReason: 'T12',
  resumeDate: '2026-11-19',
  resumeTime: '11:12:03',
  resumeDateTime: '2026-11-19 11:17:03',
  publishDate: '2026-11-19 11:07:55',
};

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

interface RejectedLine {
  code: string;
  field: string;
  value: string;
  reason: string;
}

/** One run of the NASDAQ halts pipeline against a stub answering `records`. */
async function runHalts(records: readonly Record<string, string>[]): Promise<{ code: number | null; stderr: string; symbols: unknown[]; lines: RejectedLine[]; rows: Record<string, number> }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, timestamp: '2026-11-20T15:00:00', totalCount: records.length, data: records }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const dir = tempDir();
  const pipeline = join(dir, 'halts-nasdaq.yaml');
  writeFileSync(pipeline, 'name: halts-nasdaq\nsource:\n  type: trading-halts\n  exchanges: [nasdaq]\ntransforms:\n  - type: normalize-halts\nsink:\n  type: parquet\n');
  const output = join(dir, 'out');
  const r = await runCli(['run', pipeline, '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--output', output, '--clock', NOW, '--json'], {
    env: { QUOTELAKE_TOKEN: 'halt-codes-token' },
  });
  const symbols = (await readLakeRecords(output, 'halt', 'parquet')).map((row) => row.symbol);
  const lines = allFiles(output)
    .filter((f) => f.includes('_rejected'))
    .flatMap((f) => readFileSync(f, 'utf8').trim().split('\n'))
    .map((l) => JSON.parse(l) as RejectedLine);
  const doc = JSON.parse(r.stdout) as { runs: { rows: { halt: Record<string, number> } }[] };
  return { code: r.code, stderr: r.stderr, symbols, lines, rows: doc.runs[0]!.rows.halt };
}

describe('halt records rejected by a documented code', () => {
  it('an empty required field is QL_VALUE_MALFORMED, as for a bar; the good record is written', async () => {
    const r = await runHalts([{ ...BASE, symbol: 'NOPUB', publishDate: '' }, { ...BASE, symbol: '' }, BASE]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.symbols).toEqual(['OK']);
    expect(r.lines.map((l) => [l.code, l.field, l.value, l.reason])).toEqual([
      ['QL_VALUE_MALFORMED', 'publishDate', '', 'QL_VALUE_MALFORMED: field publishDate: publishDate is required and was ""'],
      ['QL_VALUE_MALFORMED', 'symbol', '', 'QL_VALUE_MALFORMED: field symbol: symbol is required and was ""'],
    ]);
    expect(r.rows).toMatchObject({ received: 3, written: 1, rejected: 2 });
  });

  it('a New York time late on 9999-12-31, which is year 10000 in UTC, is QL_TIME_MALFORMED, never a TIMESTAMP in the lake', async () => {
    const r = await runHalts([{ ...BASE, symbol: 'LATE', publishDate: '9999-12-31 23:59:59' }, { ...BASE, symbol: 'LATEHALT', haltDateTime: '9999-12-31 20:00:00' }, BASE]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.symbols).toEqual(['OK']);
    expect(r.lines.map((l) => [l.code, l.field, l.value, l.reason])).toEqual([
      ['QL_TIME_MALFORMED', 'publishDate', '9999-12-31 23:59:59', 'QL_TIME_MALFORMED: field publishDate: "9999-12-31 23:59:59" is beyond year 9999 in UTC'],
      ['QL_TIME_MALFORMED', 'haltDateTime', '9999-12-31 20:00:00', 'QL_TIME_MALFORMED: field haltDateTime: "9999-12-31 20:00:00" is beyond year 9999 in UTC'],
    ]);
    expect(r.rows).toMatchObject({ received: 3, written: 1, rejected: 2 });
  });
});
