// Child process (forked by the backfill bench): DuckDB converts the saved /kline page bodies into
// one Parquet file, the baseline of the end-to-end ratio. Its CPU (all DuckDB threads) is this
// process's own, measured around the COPY alone and sent back over IPC.
//
// Same values and types as quotelake's files: every decimal field cast exactly to DECIMAL(38,18)
// (text split at the point: integer part through HUGEINT, fraction as DECIMAL(18,18); DuckDB's
// direct text → DECIMAL(38,18) cast is a slow path, see sink.bench.mjs, and the self-check
// below compares with it), the bar's open time as TIMESTAMP WITH TIME ZONE, `final` from the
// run's clock, ZSTD. DuckDB gets no HTTP and no JSON it did not read from disk.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const [pagesDir, outDir, clockIso, intervalSeconds] = process.argv.slice(2);
const clockSec = Math.floor(Date.parse(clockIso) / 1000);
const out = join(outDir, 'duck.parquet');

const dec = (v) => `(CASE WHEN starts_with(${v}, '-')
    THEN -(ltrim(split_part(${v}, '.', 1), '-')::HUGEINT::DECIMAL(38,18) + ('0.' || split_part(${v}, '.', 2) || '0')::DECIMAL(18,18))
    ELSE split_part(${v}, '.', 1)::HUGEINT::DECIMAL(38,18) + ('0.' || split_part(${v}, '.', 2) || '0')::DECIMAL(18,18) END)`;
const BAR = `STRUCT("timestamp" VARCHAR, open_price VARCHAR, close_price VARCHAR, high_price VARCHAR, low_price VARCHAR, volume VARCHAR, turnover VARCHAR)`;
const pages = `read_json('${join(pagesDir, '*.json')}', format='auto', columns={ret: 'INTEGER', data: 'STRUCT(code VARCHAR, kline_type INTEGER, kline_list ${BAR}[])'})`;
const bars = `(SELECT p.data.code AS code, unnest(p.data.kline_list) AS b FROM ${pages} p)`;
const sql = `COPY (SELECT code, to_timestamp(b."timestamp"::BIGINT) AS ts,
    ${dec('b.open_price')} AS open, ${dec('b.high_price')} AS high, ${dec('b.low_price')} AS low, ${dec('b.close_price')} AS close,
    ${dec('b.volume')} AS volume, ${dec('b.turnover')} AS turnover,
    b."timestamp"::BIGINT + ${Number(intervalSeconds)} <= ${clockSec} AS final
  FROM ${bars}) TO '${out}' (FORMAT parquet, COMPRESSION zstd)`;

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const cpu0 = cpuSeconds();
const started = performance.now();
await c.run(sql);
const seconds = (performance.now() - started) / 1000;
const cpu = cpuSeconds() - cpu0;
// Untimed checks: rows, distinct series bars, and a sample of values against the direct cast.
const counts = (
  await c.runAndReadAll(`SELECT count(*)::BIGINT::VARCHAR AS n, count(DISTINCT (code, ts))::BIGINT::VARCHAR AS d FROM read_parquet('${out}')`)
).getRowObjectsJson()[0];
const bad = (
  await c.runAndReadAll(`SELECT count(*)::INT AS bad FROM (SELECT b FROM ${bars} LIMIT 20000) s
    WHERE ${dec('b.turnover')} <> b.turnover::DECIMAL(38,18) OR ${dec('b.low_price')} <> b.low_price::DECIMAL(38,18) OR ${dec('b.volume')} <> b.volume::DECIMAL(38,18)`)
).getRowObjectsJson()[0].bad;
const type = (await c.runAndReadAll(`SELECT type FROM parquet_schema('${out}') WHERE name = 'open'`)).getRowObjectsJson()[0].type;
c.closeSync();
process.send?.({ rows: Number(counts.n), distinct: Number(counts.d), bad, type, cpu, seconds });
process.disconnect?.();
