import type { Decimal, Table, TimestampMillisecond } from 'apache-arrow';
import type { KlineRow, Interval } from '../../../core/records.js';
import { LONG_INTERVALS } from '../../../core/records.js';
import { datasetSchema } from '../../../core/schemas.js';
import { utcDate } from '../../../core/time.js';
import { boolColumnOf, decimalColumnOf, readDecimal, readTimestamp, timestampColumnOf, utf8ColumnOf } from '../arrow-columns.js';
import type { DatasetSpec } from '../dataset-spec.js';
import { partitionSegment } from '../partition-path.js';
import { KlineColumnBuilder } from './kline-columns.js';

const DAY_MS = 86_400_000;
/** How Hive, Spark and DuckDB spell a NULL partition value. */
const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';
let lastInterval = '';
let lastDay = Number.NaN;
let lastPath = '';

const DECIMALS = ['open', 'high', 'low', 'close', 'volume', 'turnover'] as const;

export const klineSpec: DatasetSpec<KlineRow> = {
  dataset: 'kline',
  partition(row) {
    const day = Math.floor(row.ts / DAY_MS);
    if (row.interval !== lastInterval || day !== lastDay) {
      const date = utcDate(row.ts);
      // Every path carries the same keys (interval, year, date) so one hive glob reads the whole
      // tree; daily and longer bars are partitioned by year only, so their date is the hive NULL.
      const datePart = LONG_INTERVALS.has(row.interval) ? HIVE_NULL : date;
      lastPath = `${partitionSegment('interval', row.interval)}/${partitionSegment('year', date.slice(0, 4))}/${partitionSegment('date', datePart)}`;
      lastInterval = row.interval;
      lastDay = day;
    }
    return lastPath;
  },
  group: (row) => row.code,
  order: (row) => row.ts,
  // A final bar is never replaced by a forming one; otherwise the newer version wins.
  prefer: (older, newer) => (older.final && !newer.final ? older : newer),
  bytesPerRow: () => 420,
  columns(rows, decimal) {
    const schema = datasetSchema('kline', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    return [
      utf8ColumnOf(rows, (r) => r.code),
      utf8ColumnOf(rows, (r) => r.interval),
      timestampColumnOf(type('ts') as TimestampMillisecond, rows, (r) => r.ts),
      decimalColumnOf(type('open') as Decimal, rows, (r) => r.open, 'open'),
      decimalColumnOf(type('high') as Decimal, rows, (r) => r.high, 'high'),
      decimalColumnOf(type('low') as Decimal, rows, (r) => r.low, 'low'),
      decimalColumnOf(type('close') as Decimal, rows, (r) => r.close, 'close'),
      decimalColumnOf(type('volume') as Decimal, rows, (r) => r.volume, 'volume'),
      decimalColumnOf(type('turnover') as Decimal, rows, (r) => r.turnover, 'turnover'),
      boolColumnOf(rows, (r) => r.final),
    ];
  },
  builder: (decimal) => new KlineColumnBuilder(decimal),
  fromTable(table: Table) {
    const v = (name: string) => table.getChild(name)!;
    const code = v('code');
    const interval = v('interval');
    const ts = v('ts');
    const fin = v('final');
    const decs = DECIMALS.map((c) => [c, v(c), (table.schema.fields.find((f) => f.name === c)!.type as Decimal).scale] as const);
    const rows: KlineRow[] = [];
    for (let i = 0; i < table.numRows; i++) {
      const row: Record<string, unknown> = { code: code.get(i), interval: interval.get(i) as Interval, ts: readTimestamp(ts, i), final: fin.get(i) };
      for (const [c, vec, scale] of decs) row[c] = readDecimal(vec, i, scale);
      rows.push(row as unknown as KlineRow);
    }
    return rows;
  },
  metadata(rows) {
    // One pass, no per-row array: nearly every row repeats the previous row's endpoint.
    const seen = new Set<string>();
    let last: string | undefined;
    for (let i = 0; i < rows.length; i++) {
      const s = rows[i]!.source;
      if (s !== last && typeof s === 'string') seen.add(s);
      last = s;
    }
    const sources = [...seen].sort();
    return { 'quotelake.ts': 'bar open time (UTC)', 'quotelake.source_endpoint': sources.length > 0 ? sources.join(',') : '/kline' };
  },
};
