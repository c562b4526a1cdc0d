// The lake's file layout after a resumed backfill, and compaction speed.
//
// 1. A 365-day 1m/1h K-line backfill of four codes (the shipped kline-backfill pipeline with
//    since: 365d) through the real runtime, client and Parquet sink against the in-process emulator
//    on a frozen clock, stopped every RUN_MS of real time (as a signal would) and resumed until it
//    completes. Figures: files, rows, files per partition (max, mean), bytes per file, files under
//    8 KB. Before compaction at commit this left 3,139 files for 1.83 M rows (about 580 a file).
// 2. `compact` rows/s: the same backfill written with maxRowsPerFile 580 (a lake of many small
//    files, as the old commit left it), then compacted with the default limits (compactLake, what
//    `quotelake compact` runs), timed.
// Runs against the built code (npm run bench builds it). QUOTELAKE_BENCH_LAKE_DAYS shortens the
// backfill for a quick look (e.g. 20).
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, manualSleep } from '../dist/api/index.js';
import { components } from '../dist/components.js';
import { ManualClock } from '../dist/core/clock.js';
import { startEmulator } from '../dist/emulator/server.js';
import { runPipeline } from '../dist/runtime/run-pipeline.js';

const START = '2026-03-02T15:00:00.000Z';
const DAYS = Number(process.env.QUOTELAKE_BENCH_LAKE_DAYS ?? 365);
const RUN_MS = Number(process.env.QUOTELAKE_BENCH_LAKE_RUN_MS ?? 8000);
const MAX_RUNS = 200;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function pipeline(sink) {
  return {
    name: 'lake-bench',
    service: { plan: 'professional' },
    source: { type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'], intervals: ['1m', '1h'], since: `${DAYS}d` },
    transforms: [{ type: 'parse-decimals' }],
    sink,
  };
}

/** Run the backfill into `outputDir`, stopped every `runMs` (0: never) and resumed until it completes. */
async function backfill(outputDir, sink, runMs) {
  const clock = new ManualClock(START);
  const emu = await startEmulator({ clock, log: () => {} });
  const client = createClient({ baseUrl: emu.url, token: 'demo-professional', plan: 'professional', stateDir: join(outputDir, '.state'), clock, sleep: manualSleep(clock) });
  let runs = 0;
  const started = performance.now();
  try {
    for (; runs < MAX_RUNS; ) {
      runs++;
      const stop = new AbortController();
      const timer = runMs > 0 ? setTimeout(() => stop.abort(), runMs) : undefined;
      const result = await runPipeline(pipeline(sink), { registry: components, outputDir, client, clock, signal: stop.signal, logger: quiet });
      clearTimeout(timer);
      if (result.status === 'succeeded') break;
    }
  } finally {
    await client.close();
    await emu.close();
  }
  return { runs, seconds: (performance.now() - started) / 1000 };
}

/** Live files of the kline manifest, grouped by partition, with their sizes on disk. */
async function layout(outputDir) {
  const manifest = JSON.parse(await readFile(join(outputDir, '_quotelake/manifests/kline.parquet.json'), 'utf8').catch(async () => {
    // The layout before quotelake 0.2 kept the manifest in the dataset folder.
    return readFile(join(outputDir, 'kline/_manifest.json'), 'utf8');
  }));
  const byPartition = new Map();
  let bytes = 0;
  let small = 0;
  let rows = 0;
  for (const f of manifest.files) {
    const p = f.path.slice(0, f.path.lastIndexOf('/'));
    byPartition.set(p, (byPartition.get(p) ?? 0) + 1);
    bytes += f.bytes;
    rows += f.rows;
    if (f.bytes < 8192) small++;
  }
  const counts = [...byPartition.values()];
  // Every part file on disk (live and retired within the grace): what a glob reader opens.
  const onDisk = (await readdir(join(outputDir, 'kline'), { recursive: true })).filter((e) => e.endsWith('.parquet')).length;
  return {
    files: manifest.files.length,
    onDisk,
    rows,
    partitions: counts.length,
    maxPerPartition: Math.max(...counts),
    meanPerPartition: manifest.files.length / counts.length,
    bytesPerFile: bytes / manifest.files.length,
    small,
  };
}

export async function run() {
  const dir = await mkdtemp(join(tmpdir(), 'ql-bench-lake-'));
  try {
    const resumed = join(dir, 'resumed');
    const b = await backfill(resumed, { type: 'parquet' }, RUN_MS);
    const l = await layout(resumed);
    const figures = [
      { name: `lake.backfill_${DAYS}d_resumed.runs`, value: b.runs, unit: 'runs', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.rows`, value: l.rows, unit: 'rows', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.files`, value: l.files, unit: 'files', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.files_on_disk`, value: l.onDisk, unit: 'files', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.partitions`, value: l.partitions, unit: 'partitions', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.files_per_partition.max`, value: l.maxPerPartition, unit: 'files', target: 1 },
      { name: `lake.backfill_${DAYS}d_resumed.files_per_partition.mean`, value: round(l.meanPerPartition), unit: 'files', target: 1 },
      { name: `lake.backfill_${DAYS}d_resumed.bytes_per_file`, value: Math.round(l.bytesPerFile), unit: 'bytes', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.files_under_8kb`, value: l.small, unit: 'files', target: null },
      { name: `lake.backfill_${DAYS}d_resumed.wall`, value: round(b.seconds), unit: 's', target: null },
    ];
    let compactLake;
    try {
      ({ compactLake } = await import('../dist/lake/compact-lake.js'));
    } catch {
      return figures; // code before `quotelake compact`
    }
    const smallFiles = join(dir, 'small-files');
    await backfill(smallFiles, { type: 'parquet', maxRowsPerFile: 580 }, 0);
    const before = await layout(smallFiles);
    const clock = new ManualClock(START);
    const ctx = { runId: 'compact-bench', signal: new AbortController().signal, logger: quiet, events: { request() {}, rows() {} }, clock };
    const t = performance.now();
    const [report] = await compactLake(smallFiles, { ctx, dataset: 'kline', dryRun: false, retiredGraceMs: 300_000 });
    const seconds = (performance.now() - t) / 1000;
    const after = await layout(smallFiles);
    figures.push(
      { name: 'lake.compact.files_before', value: before.files, unit: 'files', target: null },
      { name: 'lake.compact.files_after', value: after.files, unit: 'files', target: null },
      { name: 'lake.compact.files_per_partition_after.max', value: after.maxPerPartition, unit: 'files', target: 1 },
      { name: 'lake.compact.rows', value: report.rows, unit: 'rows', target: null },
      { name: 'lake.compact.wall', value: round(seconds), unit: 's', target: null },
      { name: 'lake.compact.rows_per_s', value: Math.round(report.rows / seconds), unit: 'rows/s', target: null },
    );
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function round(x) {
  return Math.round(x * 100) / 100;
}
