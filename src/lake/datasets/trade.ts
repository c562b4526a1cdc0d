import type { Decimal, Table, TimestampMillisecond } from 'apache-arrow';
import { TRADE_DECIMALS } from '../../core/carried-words.js';
import type { TradeRow } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';
import { utcDate } from '../../core/time.js';
import { decimalColumnOf, int8Column, readDecimal, readTimestamp, timestampColumn, utf8Column } from '../columns/arrow-columns.js';
import type { DatasetSpec } from './dataset-spec.js';
import { flatDecimalCheck } from '../columns/decimal-misfit.js';
import { partitionSegment } from '../partition-path.js';
import { sourceEndpoints } from './source-endpoints.js';

const DECIMALS = TRADE_DECIMALS;

export const tradeSpec: DatasetSpec<TradeRow> = {
  dataset: 'trade',
  partition: (row) => partitionSegment('date', utcDate(row.ts)),
  group: (row) => row.code,
  order: (row) => row.seq,
  seriesKey: (row) => row.code,
  seriesTime: (row) => row.ts,
  columnarKeys: { group: 'code', order: 'seq', time: 'ts' },
  bytesPerRow: () => 360,
  columns(rows, decimal) {
    const schema = datasetSchema('trade', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    return [
      utf8Column(rows.map((r) => r.code)),
      timestampColumn(type('ts') as TimestampMillisecond, rows.map((r) => r.ts)),
      utf8Column(rows.map((r) => r.seq)),
      ...DECIMALS.map((c, k) => decimalColumnOf(type(c) as Decimal, rows, (r) => r[c], c, k)),
      int8Column(rows.map((r) => r.direction)),
      timestampColumn(type('fetched_at') as TimestampMillisecond, rows.map((r) => r.fetched_at)),
    ];
  },
  decimalCheck: (decimal) => flatDecimalCheck<TradeRow>(DECIMALS, decimal),
  fromTable(table: Table) {
    const v = (name: string) => table.getChild(name)!;
    const scale = (name: string) => (table.schema.fields.find((f) => f.name === name)!.type as Decimal).scale;
    const rows: TradeRow[] = [];
    for (let i = 0; i < table.numRows; i++) {
      rows.push({
        code: v('code').get(i),
        ts: readTimestamp(v('ts'), i)!,
        seq: v('seq').get(i),
        price: readDecimal(v('price'), i, scale('price'))!,
        volume: readDecimal(v('volume'), i, scale('volume'))!,
        turnover: readDecimal(v('turnover'), i, scale('turnover'))!,
        direction: v('direction').get(i),
        fetched_at: readTimestamp(v('fetched_at'), i)!,
      });
    }
    return rows;
  },
  metadata: (rows) => ({ 'quotelake.ts': 'trade time (UTC)', 'quotelake.source_endpoint': sourceEndpoints(rows, '/trade-tick') }),
};
