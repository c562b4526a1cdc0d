/**
 * Provenance and `quotelake.series` in every file, read back from the footer as a user's tools
 * read it (DuckDB `parquet_kv_metadata` / `parquet_metadata`, hyparquet; the Arrow schema for
 * `.arrow`), for a fresh file and for the file a second run's merge writes in its place.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import type { TableEncoder } from '../../src/lake/encode/table-encoder.js';
import { buildId, codeHash } from '../../src/lake/build-id.js';
import { LAYOUT_VERSION } from '../../src/lake/layout-version.js';
import { PACKAGE_VERSION } from '../../src/lake/package-version.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { haltSpec } from '../../src/lake/datasets/halt.js';
import { depthSpec } from '../../src/lake/datasets/depth.js';
import { tradeSpec } from '../../src/lake/datasets/trade.js';
import type { HaltRow } from '../../src/core/records.js';
import { haltRows, klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { duck, runContext, tempDir } from '../sinks/helpers.js';

const ENDPOINT = '/quote-b-api/kline';
const opened: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function sink(out: string, encoder: TableEncoder): PartitionedSink<KlineRow> {
  const s = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder, decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1_000_000, maxBufferedRows: 100_000, maxBufferedBytes: 1 << 30 });
  opened.push(s);
  return s;
}

/** Bars at minutes `minutes` of T0's day, as the client hands them over from `ENDPOINT`. */
const bars = (code: string, minutes: number[]) => klineRows(minutes.map((m) => ({ ...rawKline(code, '1m', T0 + 60 * m, '1.5'), source: ENDPOINT })));

/** Write `rows` in run `runId` and commit; the one file of the partition it leaves. */
async function run(out: string, encoder: TableEncoder, runId: string, rows: KlineRow[]): Promise<string> {
  const s = sink(out, encoder);
  const ctx = runContext(runId);
  await s.write({ stream: 'k', seq: 1, records: rows }, ctx);
  const receipt = await s.commit(ctx);
  await s.close();
  expect(receipt.files).toHaveLength(1);
  return join(out, receipt.files[0]!.path);
}

const ms = (m: number) => (T0 + 60 * m) * 1000;

function expected(runId: string, series: Record<string, { rows: number; first: number; last: number }>): Record<string, string> {
  return {
    created_by: `quotelake version ${PACKAGE_VERSION} (build ${buildId()})`,
    'quotelake.version': PACKAGE_VERSION,
    'quotelake.run_id': runId,
    'quotelake.layout_version': String(LAYOUT_VERSION),
    'quotelake.schema_version': '2',
    'quotelake.dataset': 'kline',
    'quotelake.bar_time': 'open',
    'quotelake.ts': 'bar open time (UTC)',
    'quotelake.source_endpoint': ENDPOINT,
    'quotelake.series': JSON.stringify(series),
  };
}

async function duckKv(file: string): Promise<Record<string, string>> {
  const rows = await duck(`select decode(key) k, decode(value) v from parquet_kv_metadata('${file}') where k <> 'ARROW:schema'`);
  return Object.fromEntries(rows.map((r) => [r.k as string, r.v as string]));
}

async function hyKv(file: string): Promise<{ createdBy: string | undefined; kv: Record<string, string> }> {
  const bytes = await readFile(file);
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const kv = Object.fromEntries((meta.key_value_metadata ?? []).filter((e) => e.key !== 'ARROW:schema').map((e) => [e.key, e.value ?? '']));
  return { createdBy: meta.created_by, kv };
}

describe('provenance in every file', () => {
  it('build id: 12 hex digits, the same on every call', () => {
    expect(buildId()).toMatch(/^[0-9a-f]{12}$/);
    expect(buildId()).toBe(buildId());
  });

  it('build id: the modules by path and content, line endings aside; one folder or all below it', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'cli'));
    await writeFile(join(root, 'a.js'), 'export const a = 1;\nexport const b = 2;\n');
    await writeFile(join(root, 'cli', 'b.js'), 'export const c = 3;\n');
    await writeFile(join(root, 'a.d.ts'), 'export declare const a: number;\n');
    const all = codeHash(root, '.js');
    const top = codeHash(root, '.js', false);
    expect(all).toMatch(/^[0-9a-f]{12}$/);
    expect(top).not.toBe(all);
    // A checkout with CRLF is the same code; a declaration file is not code.
    await writeFile(join(root, 'a.js'), 'export const a = 1;\r\nexport const b = 2;\r\n');
    await rm(join(root, 'a.d.ts'));
    expect(codeHash(root, '.js')).toBe(all);
    await writeFile(join(root, 'cli', 'b.js'), 'export const c = 4;\n');
    expect(codeHash(root, '.js')).not.toBe(all);
    expect(codeHash(root, '.js', false)).toBe(top);
    expect(codeHash(join(root, 'none'), '.js')).toBe('unknown');
  });

  it('parquet (direct writer): fresh and merged files carry the writing run, the endpoint as called and the series', async () => {
    const out = await tempDir();
    const first = await run(out, parquetEncoder({ rowGroupRows: 131072 }), 'run-a', [...bars('BTCUSDT', [0, 1, 2]), ...bars('ETHUSDT', [5])]);
    const fresh = expected('run-a', { BTCUSDT: { rows: 3, first: ms(0), last: ms(2) }, ETHUSDT: { rows: 1, first: ms(5), last: ms(5) } });
    expect(await duckKv(first)).toEqual(fresh);
    const footer = await hyKv(first);
    expect(footer.kv).toEqual(fresh);
    expect(footer.createdBy).toBe(fresh.created_by);
    expect(await duck(`select distinct created_by::varchar c from parquet_file_metadata('${first}')`)).toEqual([{ c: fresh.created_by }]);

    // A second run writes over BTCUSDT's minutes 2..3: the partition is merged into one new file.
    const merged = await run(out, parquetEncoder({ rowGroupRows: 131072 }), 'run-b', bars('BTCUSDT', [2, 3]));
    expect(merged).not.toBe(first);
    const after = expected('run-b', { BTCUSDT: { rows: 4, first: ms(0), last: ms(3) }, ETHUSDT: { rows: 1, first: ms(5), last: ms(5) } });
    expect(await duckKv(merged)).toEqual(after);
    expect((await hyKv(merged)).kv).toEqual(after);
    expect((await hyKv(merged)).createdBy).toBe(after.created_by);
  });

  it('arrow: the same keys in the schema metadata, after a merge too', async () => {
    const out = await tempDir();
    const encoder = arrowEncoder();
    const first = await run(out, encoder, 'run-a', bars('BTCUSDT', [0, 1]));
    expect(Object.fromEntries(encoder.decode(await readFile(first)).schema.metadata)).toEqual(expected('run-a', { BTCUSDT: { rows: 2, first: ms(0), last: ms(1) } }));
    const merged = await run(out, encoder, 'run-b', bars('BTCUSDT', [1, 2]));
    expect(Object.fromEntries(encoder.decode(await readFile(merged)).schema.metadata)).toEqual(expected('run-b', { BTCUSDT: { rows: 3, first: ms(0), last: ms(2) } }));
  });

  it('parquet through parquet-wasm (halt): the same provenance, created_by in the footer, series keyed by exchange', async () => {
    const out = await tempDir();
    const s = new PartitionedSink<HaltRow>({ outputDir: out, spec: haltSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1000, maxBufferedRows: 1000, maxBufferedBytes: 1 << 30 });
    const ctx = runContext('run-h');
    const rows = haltRows([
      { exchange: 'sse', record: { symbol: '688001', haltDate: '2024-01-10', publishDate: '2024-01-09 20:15:00' }, fetchedAtMs: 0 },
      { exchange: 'sse', record: { symbol: '688002', haltDate: '2024-01-11', publishDate: '2024-01-10 20:15:00' }, fetchedAtMs: 0 },
    ]);
    await s.write({ stream: 'h', seq: 1, records: rows }, ctx);
    const receipt = await s.commit(ctx);
    await s.close();
    const file = join(out, receipt.files[0]!.path);
    const { createdBy, kv } = await hyKv(file);
    expect(createdBy).toBe(`quotelake version ${PACKAGE_VERSION} (build ${buildId()})`);
    expect(kv).toEqual(await duckKv(file));
    const times = rows.map((r) => r.published_at).sort((a, b) => a - b);
    expect(kv).toMatchObject({
      created_by: createdBy,
      'quotelake.run_id': 'run-h',
      'quotelake.dataset': 'halt',
      'quotelake.layout_version': String(LAYOUT_VERSION),
      'quotelake.source_endpoint': '/api/suspension/sse',
      'quotelake.series': JSON.stringify({ sse: { rows: 2, first: times[0], last: times[1] } }),
    });
    expect(kv['quotelake.bar_time']).toBeUndefined();
  });

  it('trade and depth files list the endpoints their rows name, as called', () => {
    const rows = [{ source: '/quote-stock-b-api/trade-tick' }, { source: '/quote-b-api/trade-tick' }, { source: '/quote-b-api/trade-tick' }] as never[];
    expect(tradeSpec.metadata(rows)['quotelake.source_endpoint']).toBe('/quote-b-api/trade-tick,/quote-stock-b-api/trade-tick');
    expect(depthSpec.metadata([{ source: '/quote-stock-b-api/depth-tick' }] as never[])['quotelake.source_endpoint']).toBe('/quote-stock-b-api/depth-tick');
  });
});
