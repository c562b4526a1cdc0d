// `quotelake inspect` on a lake of about 3,000 small Parquet files, through the built CLI: a year of
// 1m + 1h bars of two codes written with a small `maxBufferedRows` (a file bound of 400 rows, so
// many files, as many as resumed backfills left before compaction), on a frozen clock against the
// built-in emulator. Baseline:
// DuckDB globbing the same files in-process (`count(*)`, and the same per-series rows/first/last).
// Set QUOTELAKE_BENCH_LAKE to a folder to keep the lake between runs (it is built when absent).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli/quotelake.js');
const CLOCK = '2026-11-20T00:00:00Z';
const RUNS = 3;

const PIPELINE = `name: bench-inspect-lake
service:
  plan: professional
source:
  type: kline-history
  codes: [BTCUSDT, ETHUSDT]
  intervals: [1m, 1h]
  since: 365d
transforms:
  - type: parse-decimals
sink:
  type: parquet
  # Files of at most 400 rows (commits compact to that bound): about 3,000 files.
  maxBufferedRows: 400
  # Replaced files go at once, so DuckDB's glob sees the files the manifest lists, and inspect
  # is measured on live files only.
  retiredGraceMs: 0
`;

async function buildLake(dir) {
  const pipeline = join(dir, 'bench-inspect-lake.yaml');
  await mkdir(dir, { recursive: true });
  await writeFile(pipeline, PIPELINE);
  execFileSync(process.execPath, [cli, 'run', pipeline, '--output', join(dir, 'lake'), '--clock', CLOCK, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, QUOTELAKE_BASE_URL: '', QUOTELAKE_TOKEN: '' } });
}

async function countFiles(dir) {
  return (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.parquet')).length;
}

/** Wall and CPU (user + sys) of one child, from GNU time when present (Node cannot see a child's rusage). */
function timed(args) {
  const hasTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', 'QLCPU %U %S', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`inspect exited ${r.status}: ${r.stderr}`);
  const m = /QLCPU ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  return { wall, cpu: m ? Number(m[1]) + Number(m[2]) : null, stdout: r.stdout };
}

async function duck(lakeDir) {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const glob = `read_parquet('${join(lakeDir, 'kline')}/**/*.parquet', hive_partitioning = true)`;
  const measure = async (sql) => {
    const best = { wall: Infinity, cpu: Infinity };
    let rows;
    for (let i = 0; i < RUNS; i++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      rows = (await c.runAndReadAll(sql)).getRowObjectsJson();
      const wall = (performance.now() - t0) / 1000;
      const u = process.cpuUsage(cpu0);
      if (wall < best.wall) Object.assign(best, { wall, cpu: (u.user + u.system) / 1e6 });
    }
    return { ...best, rows };
  };
  const count = await measure(`select count(*) n from ${glob}`);
  const series = await measure(`select code, interval, count(*) n, min(ts) first_ts, max(ts) last_ts from ${glob} group by all order by all`);
  c.closeSync();
  return { count, series };
}

export async function run() {
  const given = process.env.QUOTELAKE_BENCH_LAKE;
  const dir = given ?? (await mkdtemp(join(tmpdir(), 'ql-bench-inspect-')));
  try {
    if (!existsSync(join(dir, 'lake', '_quotelake'))) await buildLake(dir);
    const lake = join(dir, 'lake');
    const files = await countFiles(join(lake, 'kline'));
    let best;
    for (let i = 0; i < RUNS; i++) {
      const t = timed([cli, 'inspect', lake, '--json']);
      if (!best || t.wall < best.wall) best = t;
    }
    const doc = JSON.parse(best.stdout);
    const kline = doc.datasets.find((d) => d.dataset === 'kline');
    const d = await duck(lake);
    const duckRows = Number(d.count.rows[0].n);
    if (duckRows !== kline.rows || kline.problems.length > 0) throw new Error(`inspect says ${kline.rows} rows (${kline.problems.length} problems), DuckDB ${duckRows}`);
    return [
      { name: 'inspect: lake files (kline, Parquet)', value: files, unit: 'files', target: null },
      { name: 'inspect: rows in the lake', value: kline.rows, unit: 'rows', target: null },
      { name: `inspect: quotelake inspect --json, wall (best of ${RUNS}, CLI start included)`, value: Math.round(best.wall * 1000) / 1000, unit: 's', target: 3 },
      ...(best.cpu !== null ? [{ name: 'inspect: quotelake inspect --json, CPU (user + sys)', value: Math.round(best.cpu * 1000) / 1000, unit: 's', target: null }] : []),
      { name: 'inspect: DuckDB read_parquet glob count(*), wall', value: Math.round(d.count.wall * 1000) / 1000, unit: 's', target: null },
      { name: 'inspect: DuckDB glob rows/first/last per series, wall', value: Math.round(d.series.wall * 1000) / 1000, unit: 's', target: null },
      { name: 'inspect: ours / DuckDB count(*) wall ratio', value: Math.round((best.wall / d.count.wall) * 100) / 100, unit: 'x', target: null },
    ];
  } finally {
    if (!given) await rm(dir, { recursive: true, force: true });
  }
}
