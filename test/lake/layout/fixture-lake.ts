/** The 0.1.0 fixture lake (test/fixtures/lake-0.1.0), copied, and its rows read the way each layout keeps them. */
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetSchema, PATH_ONLY_COLUMNS } from '../../../src/core/schemas.js';
import type { Dataset } from '../../../src/core/records.js';
import { arrowEncoder } from '../../../src/lake/arrow/arrow-encoder.js';
import { readManifest } from '../../../src/lake/commit/manifest.js';
import { datasetSpec } from '../../../src/lake/datasets/index.js';
import { layout1Journals, layout1ManifestRelPath, rollForwardLayout1 } from '../../../src/lake/layout/layout-1.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { duck } from '../../sinks/helpers.js';

export const FIXTURE = fileURLToPath(new URL('../../fixtures/lake-0.1.0', import.meta.url));

/** What the fixture holds: dataset and format of every manifest. */
export const FIXTURE_TABLES = [
  ['kline', 'parquet'],
  ['kline', 'arrow'],
  ['trade', 'parquet'],
  ['depth', 'parquet'],
  ['halt', 'parquet'],
] as const;

export async function copyOfFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ql-lake010-'));
  await cp(FIXTURE, dir, { recursive: true });
  return dir;
}

const encoders = { parquet: parquetEncoder({ rowGroupRows: 131_072 }), arrow: arrowEncoder() };

function canonical(row: object): string {
  const sorted = Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify(sorted);
}

async function rowsOf(dir: string, dataset: string, format: 'parquet' | 'arrow', paths: readonly string[]): Promise<string[]> {
  const rows: string[] = [];
  for (const p of paths) {
    const table = encoders[format].decode(await readFile(join(dir, dataset, p)));
    for (const r of datasetSpec(dataset).fromTable(table, posix.dirname(p))) rows.push(canonical(r));
  }
  return rows.sort();
}

/** The 0.1.0 lake's rows per `dataset.format`, once its pending journal is rolled forward as 0.1.0 would. */
export async function layout1Rows(): Promise<Map<string, string[]>> {
  const dir = await copyOfFixture();
  for (const { path, journal } of await layout1Journals(dir)) await rollForwardLayout1(dir, path, journal);
  const out = new Map<string, string[]>();
  for (const [dataset, format] of FIXTURE_TABLES) {
    const manifest = JSON.parse(await readFile(join(dir, layout1ManifestRelPath(dataset, format)), 'utf8')) as { files: { path: string }[] };
    out.set(`${dataset}.${format}`, await rowsOf(dir, dataset, format, manifest.files.map((f) => f.path)));
  }
  return out;
}

/** A layout-2 lake's rows per `dataset.format`, through its manifests. */
export async function layout2Rows(dir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const [dataset, format] of FIXTURE_TABLES) {
    const manifest = await readManifest(dir, dataset, format);
    out.set(`${dataset}.${format}`, manifest ? await rowsOf(dir, dataset, format, manifest.files.map((f) => f.path)) : []);
  }
  return out;
}

/** Every column of a dataset as 0.1.0 had it (file columns plus the hive keys it repeated). */
export function layout1Columns(dataset: Dataset): string[] {
  return [...PATH_ONLY_COLUMNS[dataset], ...datasetSchema(dataset).fields.map((f) => f.name)];
}

/** DuckDB's view of Parquet files: row count and a digest of every row (columns by name, sorted). */
export async function duckDigest(dataset: Dataset, source: string): Promise<{ n: number; digest: string }> {
  const cols = layout1Columns(dataset)
    .map((c) => `"${c}"`)
    .join(', ');
  const [r] = await duck(`SELECT count(*)::INT n, md5(coalesce(string_agg(j, chr(10) ORDER BY j), '')) digest FROM (SELECT to_json(struct_pack(${cols.split(', ').map((c) => `${c} := ${c}`).join(', ')}))::VARCHAR j FROM ${source})`);
  return { n: r!.n as number, digest: r!.digest as string };
}
