/**
 * What an output folder holds, read the way a user's engine would: the sinks' manifests name the
 * live files, and every file is read back through parquet-wasm / apache-arrow to count rows and
 * find each series' time range. Run manifests under the state dir give the last runs.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { arrowEncoder } from '../../lake/arrow/arrow-encoder.js';
import { datasetSpec, isDataset } from '../../lake/datasets/index.js';
import { manifestPath, type Manifest } from '../../lake/commit/manifest.js';
import { parquetEncoder } from '../../lake/parquet/parquet-encoder.js';
import type { TableEncoder } from '../../lake/encode/table-encoder.js';
import { readRunManifests, type RunManifest } from '../../runtime/run-manifest.js';

export interface SeriesInfo {
  /** e.g. `BTCUSDT 1m` (kline), `AAPL.US` (trade, depth), `nyse` (halt). */
  readonly series: string;
  readonly rows: number;
  /** ISO instants of the first and last row (bar open time for K-lines). */
  readonly first: string | null;
  readonly last: string | null;
}

export interface DatasetInfo {
  readonly dataset: string;
  readonly format: string;
  readonly files: number;
  readonly bytes: number;
  readonly rows: number;
  readonly partitions: readonly string[];
  readonly series: readonly SeriesInfo[];
  /** Files the manifest lists that are missing or unreadable. */
  readonly problems: readonly string[];
  readonly updatedAt: string;
}

export interface RunInfo {
  readonly runId: string;
  readonly pipeline: string;
  readonly status: string;
  readonly startedAt: string;
  readonly finishedAt?: string | undefined;
  readonly requests: number;
  readonly rowsWritten: number;
  readonly files: number;
  readonly rejected: number;
  readonly error?: string | undefined;
}

export interface OutputInfo {
  readonly output: string;
  readonly stateDir: string;
  readonly datasets: readonly DatasetInfo[];
  readonly rejectedFiles: number;
  readonly runs: readonly RunInfo[];
}

function encoderFor(format: string): TableEncoder | undefined {
  if (format === 'parquet') return parquetEncoder({ rowGroupRows: 1 });
  if (format === 'arrow') return arrowEncoder();
  return undefined;
}

type Row = Record<string, unknown>;

function seriesOf(dataset: string, row: Row): { key: string; at: number | null } {
  switch (dataset) {
    case 'kline':
      return { key: `${String(row.code)} ${String(row.interval)}`, at: row.ts as number };
    case 'halt':
      return { key: String(row.exchange), at: (row.published_at as number | null) ?? null };
    default:
      return { key: String(row.code), at: (row.ts as number | null) ?? null };
  }
}

async function readManifestFile(path: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

async function inspectDataset(output: string, dataset: string, format: string, manifest: Manifest): Promise<DatasetInfo> {
  const encoder = encoderFor(format);
  const series = new Map<string, { rows: number; min: number; max: number }>();
  const problems: string[] = [];
  const partitions = new Set<string>();
  let rows = 0;
  let bytes = 0;
  const spec = datasetSpec(dataset);
  for (const file of manifest.files) {
    partitions.add(posix.dirname(file.path));
    const path = join(output, dataset, file.path);
    let data: Uint8Array;
    try {
      data = await readFile(path);
    } catch {
      problems.push(`${dataset}/${file.path}: listed in the manifest but missing`);
      continue;
    }
    bytes += data.byteLength;
    if (!encoder) continue;
    let records: Row[];
    try {
      records = spec.fromTable(encoder.decode(data), posix.dirname(file.path)) as unknown as Row[];
    } catch (e) {
      problems.push(`${dataset}/${file.path}: unreadable (${(e as Error).message})`);
      continue;
    }
    if (records.length !== file.rows) problems.push(`${dataset}/${file.path}: ${records.length} rows, the manifest says ${file.rows}`);
    rows += records.length;
    for (const r of records) {
      const { key, at } = seriesOf(dataset, r);
      const s = series.get(key) ?? { rows: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
      s.rows++;
      if (at !== null && Number.isFinite(at)) {
        s.min = Math.min(s.min, at);
        s.max = Math.max(s.max, at);
      }
      series.set(key, s);
    }
  }
  const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);
  return {
    dataset,
    format,
    files: manifest.files.length,
    bytes,
    rows,
    partitions: [...partitions].sort(),
    series: [...series.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, s]) => ({ series: key, rows: s.rows, first: iso(s.min), last: iso(s.max) })),
    problems,
    updatedAt: manifest.updatedAt,
  };
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (e.isDirectory()) n += await countFiles(join(dir, e.name));
    else if (e.isFile()) n++;
  }
  return n;
}

export async function inspectOutput(output: string, stateDir: string, lastRuns = 5): Promise<OutputInfo> {
  const st = await stat(output).catch(() => undefined);
  if (!st?.isDirectory()) throw new Error(`${output} is not a folder`);
  const datasets: DatasetInfo[] = [];
  for (const e of (await readdir(output, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isDirectory() || !isDataset(e.name)) continue;
    for (const format of ['parquet', 'arrow']) {
      const manifest = await readManifestFile(manifestPath(output, e.name, format));
      if (manifest) datasets.push(await inspectDataset(output, e.name, format, manifest));
    }
  }
  const runs = (await readRunManifests(stateDir))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
    .slice(-lastRuns)
    .reverse()
    .map(runInfo);
  return { output, stateDir, datasets, rejectedFiles: await countFiles(join(output, '_rejected')), runs };
}

function runInfo(m: RunManifest): RunInfo {
  return {
    runId: m.runId,
    pipeline: m.pipeline,
    status: m.status,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    requests: Object.values(m.requests).reduce((a, b) => a + b, 0),
    rowsWritten: Object.values(m.rows).reduce((a, r) => a + r.written, 0),
    files: m.filesCommitted.length,
    rejected: m.rejected,
    error: m.error?.message,
  };
}
