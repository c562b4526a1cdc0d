import type { Decimal, Table, TimestampMillisecond } from 'apache-arrow';
import { KLINE_DECIMALS } from '../../core/carried-words.js';
import { klinePartition } from '../../core/kline-partition.js';
import type { KlineRow, Interval } from '../../core/records.js';
import { LONG_INTERVALS } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';
import { boolColumnOf, decimalColumnOf, readDecimal, readTimestamp, timestampColumnOf, utf8ColumnOf } from '../columns/arrow-columns.js';
import type { DatasetSpec } from './dataset-spec.js';
import { flatDecimalCheck } from '../columns/decimal-misfit.js';
import { partitionKey } from '../partition-path.js';
import { sourceEndpoints } from './source-endpoints.js';
import { KlineColumnBuilder, klineDecimalsAt } from './kline-columns.js';

const DAY_MS = 86_400_000;
let lastInterval = '';
let lastDay = Number.NaN;
let lastPath = '';

export const klineSpec: DatasetSpec<KlineRow> = {
  dataset: 'kline',
  partition(row) {
    const day = Math.floor(row.ts / DAY_MS);
    if (row.interval !== lastInterval || day !== lastDay) {
      lastPath = klinePartition(row.interval, row.ts);
      lastInterval = row.interval;
      lastDay = day;
    }
    return lastPath;
  },
  group: (row) => row.code,
  order: (row) => row.ts,
  seriesKey: (row) => row.code,
  seriesTime: (row) => row.ts,
  // The UTC day of the path's date, or the UTC year for bars partitioned by year only.
  partitionStart: (row) => {
    const day = Math.floor(row.ts / DAY_MS) * DAY_MS;
    return LONG_INTERVALS.has(row.interval) ? new Date(day).setUTCMonth(0, 1) : day;
  },
  columnarKeys: { group: 'code', order: 'ts', time: 'ts', sticky: 'final' },
  // A final bar is never replaced by a forming one; otherwise the newer version wins.
  prefer: (older, newer) => (older.final && !newer.final ? older : newer),
  bytesPerRow: () => 420,
  columns(rows, decimal) {
    const schema = datasetSchema('kline', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    return [
      utf8ColumnOf(rows, (r) => r.code),
      timestampColumnOf(type('ts') as TimestampMillisecond, rows, (r) => r.ts),
      ...KLINE_DECIMALS.map((c, k) => decimalColumnOf(type(c) as Decimal, rows, (r) => r[c], c, k)),
      boolColumnOf(rows, (r) => r.final),
    ];
  },
  builder: (decimal) => new KlineColumnBuilder(decimal),
  decimalCheck: (decimal) => flatDecimalCheck<KlineRow>(KLINE_DECIMALS, decimal),
  fromTable(table: Table, partition: string) {
    // Layout 2 keeps the interval in the path only; a layout-1 file (0.1.0) still has the column.
    const pathInterval = table.schema.fields.some((f) => f.name === 'interval') ? undefined : (partitionKey(partition, 'interval') as Interval);
    const scales = KLINE_DECIMALS.map((c) => (table.schema.fields.find((f) => f.name === c)!.type as Decimal).scale);
    const rows: KlineRow[] = [];
    for (const batch of table.batches) {
      const col = (name: string) => batch.getChild(name)!;
      const code = col('code');
      const intervalColumn = pathInterval === undefined ? col('interval') : undefined;
      const intervalAt = (i: number): Interval => pathInterval ?? (intervalColumn!.get(i) as Interval);
      const fin = col('final');
      const ts = col('ts');
      const decs = KLINE_DECIMALS.map((c) => col(c));
      const direct = [ts, ...decs].every((v) => v.data.length === 1 && v.data[0]!.nullCount === 0);
      if (!direct) {
        for (let i = 0; i < batch.numRows; i++) {
          const row: Record<string, unknown> = { code: code.get(i), interval: intervalAt(i), ts: readTimestamp(ts, i), final: fin.get(i) };
          for (let c = 0; c < KLINE_DECIMALS.length; c++) row[KLINE_DECIMALS[c]!] = readDecimal(decs[c]!, i, scales[c]!);
          rows.push(row as unknown as KlineRow);
        }
        continue;
      }
      // Merges read whole files back: take the fixed-width buffers in place rather than a
      // Vector.get (chunk search, subarray, BigInt) per cell.
      const n = batch.numRows;
      const tv = ts.data[0]!.values as unknown as ArrayBufferView;
      const lo = new Uint32Array(tv.buffer, tv.byteOffset, 2 * n);
      const hi = new Int32Array(tv.buffer, tv.byteOffset, 2 * n);
      const words = decs.map((v) => v.data[0]!.values as Uint32Array);
      for (let i = 0; i < n; i++) {
        rows.push({
          code: code.get(i) as string,
          interval: intervalAt(i),
          ts: lo[2 * i]! + hi[2 * i + 1]! * 4294967296,
          ...klineDecimalsAt(words, 4 * i, scales),
          final: fin.get(i) as boolean,
        });
      }
    }
    return rows;
  },
  metadata: (rows) => ({ 'quotelake.ts': 'bar open time (UTC)', 'quotelake.bar_time': 'open', 'quotelake.source_endpoint': sourceEndpoints(rows, '/kline') }),
};
