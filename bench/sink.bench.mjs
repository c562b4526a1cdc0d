// K-line rows → Parquet: quotelake (parse-decimals + parquet sink) against DuckDB's native
// NDJSON → Parquet on the same rows, plus peak RSS at 1M and 5M rows (each in its own process).
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { batches, runPipeline } from './sink-workload.mjs';

const ROWS = 1_000_000;

function childRss(total, outputDir) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./sink-rss-child.mjs', import.meta.url)), [String(total), outputDir], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let message;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('message', (m) => (message = m));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && message ? resolve(message) : reject(new Error(`rss child ${total} exited ${code}: ${stderr.slice(0, 500)}`))));
  });
}

async function duckdbBaseline(dir, rawBatches) {
  const ndjson = join(dir, 'klines.ndjson');
  const lines = [];
  for (const b of rawBatches) {
    for (const r of b.records) lines.push(JSON.stringify({ code: r.code, interval: r.interval, final: r.final, ...r.bar }));
  }
  await writeFile(ndjson, lines.join('\n') + '\n');
  lines.length = 0;
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const dec = 'DECIMAL(38,18)';
  const sql = `COPY (SELECT code, interval, make_timestamptz(timestamp::BIGINT * 1000000) AS ts,
      open_price::${dec} AS open, high_price::${dec} AS high, low_price::${dec} AS low, close_price::${dec} AS close,
      volume::${dec} AS volume, turnover::${dec} AS turnover, final
    FROM read_json('${ndjson}', format='newline_delimited', columns={code:'VARCHAR', interval:'VARCHAR', final:'BOOLEAN', timestamp:'VARCHAR',
      open_price:'VARCHAR', close_price:'VARCHAR', high_price:'VARCHAR', low_price:'VARCHAR', volume:'VARCHAR', turnover:'VARCHAR'}))
    TO '${join(dir, 'duck.parquet')}' (FORMAT parquet, COMPRESSION zstd)`;
  const started = performance.now();
  await c.run(sql);
  const seconds = (performance.now() - started) / 1000;
  const check = await c.runAndReadAll(`select count(*)::INT n from read_parquet('${join(dir, 'duck.parquet')}')`);
  const n = check.getRowObjectsJson()[0].n;
  c.closeSync();
  return { seconds, rows: n };
}

export async function run() {
  const dir = await mkdtemp(join(tmpdir(), 'ql-sink-bench-'));
  try {
    const raw = [...batches(ROWS)]; // generated up front: the timer sees only transform + sink
    const started = performance.now();
    const ours = await runPipeline(join(dir, 'ours'), raw);
    const oursSeconds = (performance.now() - started) / 1000;
    const oursRate = ours.rows / oursSeconds;
    const duck = await duckdbBaseline(dir, raw);
    raw.length = 0;
    const duckRate = duck.rows / duck.seconds;
    const rss1 = await childRss(1_000_000, join(dir, 'rss1'));
    const rss5 = await childRss(5_000_000, join(dir, 'rss5'));
    const mb = (kb) => Math.round((kb / 1024) * 10) / 10;
    return [
      { name: 'sink: kline JSON strings → Parquet (parse-decimals + parquet sink), 1M rows', value: Math.round(oursRate), unit: 'rows/s', target: 500000 },
      { name: 'sink: DuckDB native NDJSON → Parquet (read_json + DECIMAL(38,18) casts, zstd), 1M rows', value: Math.round(duckRate), unit: 'rows/s', target: null },
      { name: 'sink: ours / DuckDB throughput ratio', value: Math.round((oursRate / duckRate) * 100) / 100, unit: 'x', target: 0.7 },
      { name: 'sink: peak RSS, 1M rows streamed (child process)', value: mb(rss1.maxRssKb), unit: 'MB', target: 300 },
      { name: 'sink: peak RSS, 5M rows streamed (child process)', value: mb(rss5.maxRssKb), unit: 'MB', target: 300 },
      { name: 'sink: 5M rows streamed, throughput (child process)', value: Math.round(rss5.rows / rss5.seconds), unit: 'rows/s', target: null },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
