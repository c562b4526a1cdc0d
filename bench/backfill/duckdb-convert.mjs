// Child process (forked by the backfill bench): DuckDB converts the saved /kline page bodies into
// one Parquet file, the baseline of the end-to-end ratio. Its CPU (all DuckDB threads) is this
// process's own, measured around the COPY alone (the ratio's denominator) and, for the same-footing
// comparison with quotelake's whole process, from the process's start to the COPY's end (Node's
// start-up, loading DuckDB, the instance, the COPY); both are sent back over IPC.
//
// Same values and types as quotelake's files: every decimal field cast exactly to DECIMAL(38,18)
// (text split at the point: integer part through HUGEINT, fraction as DECIMAL(18,18); DuckDB's
// direct text → DECIMAL(38,18) cast is a slow path, see sink.bench.mjs, and the self-check
// below compares with it), the bar's open time as TIMESTAMP WITH TIME ZONE, `final` from the
// run's clock, ZSTD. DuckDB gets no HTTP and no JSON it did not read from disk.
//
// Cast `split` (the default, the ratio's denominator) is the fastest exact SQL found; `cast` is the
// plain `::DECIMAL(38,18)` a user writes, the same values by a far slower path (reported beside it).
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const [pagesDir, outDir, clockIso, intervalSeconds, cast = 'split'] = process.argv.slice(2);
if (cast !== 'split' && cast !== 'cast') throw new Error(`cast must be split or cast, not ${cast}`);
const clockSec = Math.floor(Date.parse(clockIso) / 1000);
const out = join(outDir, 'duck.parquet');

const splitDec = (v) => `(CASE WHEN starts_with(${v}, '-')
    THEN -(ltrim(split_part(${v}, '.', 1), '-')::HUGEINT::DECIMAL(38,18) + ('0.' || split_part(${v}, '.', 2) || '0')::DECIMAL(18,18))
    ELSE split_part(${v}, '.', 1)::HUGEINT::DECIMAL(38,18) + ('0.' || split_part(${v}, '.', 2) || '0')::DECIMAL(18,18) END)`;
const dec = cast === 'split' ? splitDec : (v) => `${v}::DECIMAL(38,18)`;
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
const processCpu = cpuSeconds();
const cpu = processCpu - cpu0;
// Untimed checks: rows, distinct series bars, and a sample of values against the direct cast.
const counts = (
  await c.runAndReadAll(`SELECT count(*)::BIGINT::VARCHAR AS n, count(DISTINCT (code, ts))::BIGINT::VARCHAR AS d FROM read_parquet('${out}')`)
).getRowObjectsJson()[0];
const bad = (
  await c.runAndReadAll(`SELECT count(*)::INT AS bad FROM (SELECT b FROM ${bars} LIMIT 20000) s
    WHERE ${splitDec('b.turnover')} <> b.turnover::DECIMAL(38,18) OR ${splitDec('b.low_price')} <> b.low_price::DECIMAL(38,18) OR ${splitDec('b.volume')} <> b.volume::DECIMAL(38,18)`)
).getRowObjectsJson()[0].bad;
const type = (await c.runAndReadAll(`SELECT type FROM parquet_schema('${out}') WHERE name = 'open'`)).getRowObjectsJson()[0].type;
c.closeSync();
process.send?.({ rows: Number(counts.n), distinct: Number(counts.d), bad, type, cpu, processCpu, seconds, cast });
process.disconnect?.();
