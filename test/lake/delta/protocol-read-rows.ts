/**
 * A Delta reader for the tests, written from PROTOCOL.md and independent of src/lake/delta: the
 * snapshot from the newest checkpoint (`_last_checkpoint`, read with DuckDB, not hyparquet as
 * quotelake reads it) plus the JSON commits after it, then the rows of every live file as an
 * engine builds them: the file's columns, and each partition column from the add's
 * `partitionValues` cast to its schema type (never from the path). Also the checks an engine's
 * reader relies on, per live file: its size, its Parquet types against the schema, and its stats
 * against its rows and against its own footer, as DuckDB and as hyparquet read it.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { duck } from '../../sinks/helpers.js';

interface Add {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  stats?: string;
}

export interface ProtocolSnapshot {
  version: number;
  fromCheckpoint?: number;
  protocol: { minReaderVersion: number; minWriterVersion: number };
  schema: { name: string; type: unknown; nullable: boolean }[];
  partitionColumns: string[];
  /** Live files: decoded path → add. */
  live: Map<string, Add>;
}

const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
const num = (v: unknown) => Number(v);

export async function protocolSnapshot(tableDir: string): Promise<ProtocolSnapshot> {
  const logDir = join(tableDir, '_delta_log');
  const names = await readdir(logDir);
  const commits = names.filter((n) => /^\d{20}\.json$/.test(n)).map((n) => Number(n.slice(0, 20))).sort((a, b) => a - b);
  const version = commits.at(-1)!;
  let start = -1;
  const live = new Map<string, Add>();
  let metaData: { schemaString: string; partitionColumns: string[] } | undefined;
  let protocol: ProtocolSnapshot['protocol'] | undefined;
  if (names.includes('_last_checkpoint')) {
    start = (JSON.parse(await readFile(join(logDir, '_last_checkpoint'), 'utf8')) as { version: number }).version;
    const file = join(logDir, `${String(start).padStart(20, '0')}.checkpoint.parquet`);
    const rows = await duck(`SELECT to_json(add) AS a, to_json(metaData) AS m, to_json(protocol) AS p FROM read_parquet(${sqlText(file)})`);
    for (const r of rows) {
      if (r.a !== null) {
        const a = JSON.parse(String(r.a)) as Add & { partitionValues: Record<string, string | null> | { key: string; value: string | null }[] };
        // DuckDB renders a MAP as an object.
        live.set(decodeURIComponent(a.path), { ...a, size: num(a.size), partitionValues: a.partitionValues as Record<string, string | null> });
      }
      if (r.m !== null) metaData = JSON.parse(String(r.m)) as typeof metaData;
      if (r.p !== null) protocol = JSON.parse(String(r.p)) as typeof protocol;
    }
  }
  for (const v of commits.filter((c) => c > start)) {
    for (const line of (await readFile(join(logDir, `${String(v).padStart(20, '0')}.json`), 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      const action = JSON.parse(line) as { add?: Add; remove?: { path: string }; metaData?: typeof metaData; protocol?: typeof protocol };
      if (action.add) live.set(decodeURIComponent(action.add.path), action.add);
      if (action.remove) live.delete(decodeURIComponent(action.remove.path));
      if (action.metaData) metaData = action.metaData;
      if (action.protocol) protocol = action.protocol;
    }
  }
  const schema = (JSON.parse(metaData!.schemaString) as { fields: ProtocolSnapshot['schema'] }).fields;
  return { version, ...(start >= 0 ? { fromCheckpoint: start } : {}), protocol: protocol!, schema, partitionColumns: metaData!.partitionColumns, live };
}

const SQL_TYPES: Record<string, string> = { string: 'VARCHAR', integer: 'INTEGER', date: 'DATE', long: 'BIGINT' };

/** How a column is compared: instants as epoch microseconds, everything else as DuckDB prints it. */
function projection(field: ProtocolSnapshot['schema'][number]): string {
  const c = `"${field.name}"`;
  return field.type === 'timestamp' ? `epoch_us(${c})::VARCHAR AS ${c}` : `${c}::VARCHAR AS ${c}`;
}

/** Every row of the snapshot, each as one JSON text of its columns in schema order, sorted. */
export async function rowsThroughLog(tableDir: string, snapshot: ProtocolSnapshot): Promise<string[]> {
  if (snapshot.live.size === 0) return [];
  const parts = [...snapshot.live].map(([path, add]) => {
    const partitions = snapshot.partitionColumns.map((name) => {
      const field = snapshot.schema.find((f) => f.name === name)!;
      const value = add.partitionValues[name];
      return `${value === null || value === '' ? 'NULL' : sqlText(value!)}::${SQL_TYPES[field.type as string]} AS "${name}"`;
    });
    return `SELECT *${partitions.length > 0 ? `, ${partitions.join(', ')}` : ''} FROM read_parquet(${sqlText(join(tableDir, path))}, hive_partitioning = false)`;
  });
  return rowsOf(`${parts.join(' UNION ALL BY NAME ')}`, snapshot);
}

/** Every row of plain files read as a hive glob reader reads them (partition columns from the path). */
export async function rowsOfFiles(files: readonly string[], snapshot: ProtocolSnapshot): Promise<string[]> {
  if (files.length === 0) return [];
  return rowsOf(`SELECT * FROM read_parquet([${files.map(sqlText).join(', ')}], hive_partitioning = true, hive_types_autocast = true)`, snapshot);
}

async function rowsOf(from: string, snapshot: ProtocolSnapshot): Promise<string[]> {
  // Partition columns compared as text: a hive reader infers their types, the log declares them.
  const rows = await duck(`SELECT ${snapshot.schema.map(projection).join(', ')} FROM (${from})`);
  return rows.map((r) => JSON.stringify(snapshot.schema.map((f) => r[f.name] ?? null))).sort();
}

/** The Parquet physical and logical type a Delta primitive type is stored as (PROTOCOL.md's mapping table). */
function parquetTypeOf(type: string): { physical: string; logical: RegExp } | undefined {
  if (type === 'string') return { physical: 'BYTE_ARRAY', logical: /^StringType/ };
  if (type === 'timestamp') return { physical: 'INT64', logical: /isAdjustedToUTC=(1|true), unit=TimeUnit\(MILLIS=<null>, MICROS=MicroSeconds/ };
  if (type === 'boolean') return { physical: 'BOOLEAN', logical: /^$|^null$/ };
  if (type === 'byte') return { physical: 'INT32', logical: /IntType\(bitWidth=\S, isSigned=(1|true)\)/ };
  const m = /^decimal\((\d+),(\d+)\)$/.exec(type);
  if (m === null) return undefined;
  const p = Number(m[1]);
  return { physical: p <= 9 ? 'INT32' : p <= 18 ? 'INT64' : 'FIXED_LEN_BYTE_ARRAY', logical: new RegExp(`^DecimalType\\(scale=${m[2]}, precision=${m[1]}\\)$`) };
}

/** What is wrong with one live file for a reader that trusts the log; [] when nothing is. */
export async function fileProblems(tableDir: string, path: string, add: Add, snapshot: ProtocolSnapshot): Promise<string[]> {
  const file = join(tableDir, path);
  const problems: string[] = [];
  if ((await stat(file)).size !== add.size) problems.push(`size ${add.size} in the log, ${(await stat(file)).size} on disk`);
  const columns = await duck(`SELECT name, type, repetition_type AS r, coalesce(logical_type::VARCHAR, '') AS lt FROM parquet_schema(${sqlText(file)})`);
  for (const field of snapshot.schema) {
    if (snapshot.partitionColumns.includes(field.name)) {
      if (columns.some((c) => c.name === field.name)) problems.push(`partition column ${field.name} also in the file`);
      continue;
    }
    if (typeof field.type !== 'string') continue; // depth levels: checked by value through the rows
    const column = columns.find((c) => c.name === field.name);
    const want = parquetTypeOf(field.type);
    if (column === undefined || want === undefined) {
      problems.push(`column ${field.name} (${field.type}) ${column === undefined ? 'missing' : 'of no known mapping'}`);
      continue;
    }
    if (column.type !== want.physical || !want.logical.test(String(column.lt))) problems.push(`column ${field.name}: ${field.type} in the log, ${String(column.type)} ${String(column.lt)} in the file`);
    if (column.r !== (field.nullable ? 'OPTIONAL' : 'REQUIRED')) problems.push(`column ${field.name}: nullable ${field.nullable} in the log, ${String(column.r)} in the file`);
  }
  if (add.stats === undefined) return problems;
  const stats = JSON.parse(add.stats) as { numRecords: number; minValues: Record<string, string>; maxValues: Record<string, string>; nullCount: Record<string, number> };
  const bounded = Object.keys(stats.minValues);
  const isTime = (c: string) => snapshot.schema.find((f) => f.name === c)!.type === 'timestamp';
  // Instants compared as epoch ms (the log's stats are ISO 8601 text, truncated to ms), text as text.
  const value = (c: string, v: string) => (isTime(c) ? `epoch_ms(${v})::VARCHAR` : `${v}::VARCHAR`);
  const logged = (c: string, v: string | undefined) => (v === undefined ? undefined : isTime(c) ? String(Date.parse(v)) : v);
  const [actual] = await duck(
    `SELECT count(*)::BIGINT::VARCHAR AS n${bounded.map((c) => `, ${value(c, `min("${c}")`)} AS "min ${c}", ${value(c, `max("${c}")`)} AS "max ${c}", count(*) FILTER (WHERE "${c}" IS NULL)::VARCHAR AS "nulls ${c}"`).join('')} FROM read_parquet(${sqlText(file)})`,
  );
  if (String(stats.numRecords) !== actual!.n) problems.push(`numRecords ${stats.numRecords}, the file has ${String(actual!.n)}`);
  for (const c of bounded) {
    const [lo, hi] = [logged(c, stats.minValues[c]), logged(c, stats.maxValues[c])];
    if (lo !== actual![`min ${c}`] || hi !== actual![`max ${c}`]) problems.push(`${c}: stats ${stats.minValues[c]}..${stats.maxValues[c]}, rows ${String(actual![`min ${c}`])}..${String(actual![`max ${c}`])}`);
    if (String(stats.nullCount[c]) !== actual![`nulls ${c}`]) problems.push(`${c}: nullCount ${stats.nullCount[c]}, rows ${String(actual![`nulls ${c}`])}`);
    // The footer's own statistics (over its row groups) bound the same values.
    const cast = isTime(c) ? '::TIMESTAMPTZ' : '';
    const [footer] = await duck(
      `SELECT ${value(c, `min(stats_min_value${cast})`)} AS lo, ${value(c, `max(stats_max_value${cast})`)} AS hi FROM parquet_metadata(${sqlText(file)}) WHERE path_in_schema = ${sqlText(c)}`,
    );
    if (footer!.lo !== lo || footer!.hi !== hi) problems.push(`${c}: stats ${stats.minValues[c]}..${stats.maxValues[c]}, footer ${String(footer!.lo)}..${String(footer!.hi)}`);
  }
  // A second reader of the footer: hyparquet (its own thrift decoding).
  const bytes = await readFile(file);
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  if (String(meta.num_rows) !== String(stats.numRecords)) problems.push(`numRecords ${stats.numRecords}, hyparquet's footer ${String(meta.num_rows)}`);
  const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
  for (const c of bounded) {
    const chunks = meta.row_groups.map((g) => g.columns.find((k) => k.meta_data?.path_in_schema.join('.') === c)?.meta_data?.statistics);
    const [lo, hi] = [chunks.map((x) => text(x?.min_value)).sort()[0], chunks.map((x) => text(x?.max_value)).sort().at(-1)];
    if (lo !== stats.minValues[c] || hi !== stats.maxValues[c]) problems.push(`${c}: stats ${stats.minValues[c]}..${stats.maxValues[c]}, hyparquet's footer ${lo}..${hi}`);
  }
  for (const element of meta.schema) {
    const field = snapshot.schema.find((f) => f.name === element.name);
    if (field?.type === 'timestamp' && !(element.logical_type?.type === 'TIMESTAMP' && element.logical_type.isAdjustedToUTC && element.logical_type.unit === 'MICROS')) {
      problems.push(`column ${field.name}: hyparquet reads ${JSON.stringify(element.logical_type)}`);
    }
  }
  return problems;
}
