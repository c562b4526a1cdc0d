import type { Decimal, Table, TimestampMillisecond } from 'apache-arrow';
import type { HaltRow } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';
import { utcYear } from '../../core/time.js';
import { decimalColumn, readDecimal, readTimestamp, timestampColumn, utf8Column } from '../columns/arrow-columns.js';
import type { DatasetSpec } from './dataset-spec.js';
import { flatDecimalCheck } from '../columns/decimal-misfit.js';
import { partitionKey, partitionSegment } from '../partition-path.js';

const TEXT = ['symbol', 'name', 'reason', 'period'] as const;

export const haltSpec: DatasetSpec<HaltRow> = {
  dataset: 'halt',
  partition: (row) => `${partitionSegment('exchange', row.exchange)}/${partitionSegment('year', utcYear(row.halt_at ?? row.published_at))}`,
  group: (row) => `${row.symbol}\u0000${row.halt_at ?? row.halt_local ?? ''}`,
  order: (row) => row.published_at,
  seriesKey: (row) => row.exchange,
  seriesTime: (row) => row.published_at,
  alwaysMerge: true,
  decimalCheck: (decimal) => flatDecimalCheck<HaltRow>(['pause_threshold_price'], decimal),
  bytesPerRow: () => 600,
  columns(rows, decimal) {
    const schema = datasetSchema('halt', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    const ts = (name: 'halt_at' | 'resume_quote_at' | 'resume_trade_at' | 'published_at') =>
      timestampColumn(type(name) as TimestampMillisecond, rows.map((r) => r[name]));
    return [
      ...TEXT.map((c) => utf8Column(rows.map((r) => r[c]))),
      ts('halt_at'),
      utf8Column(rows.map((r) => r.halt_local)),
      ts('resume_quote_at'),
      ts('resume_trade_at'),
      utf8Column(rows.map((r) => r.resume_local)),
      utf8Column(rows.map((r) => r.source_exchange)),
      decimalColumn(type('pause_threshold_price') as Decimal, rows.map((r) => r.pause_threshold_price), 'pause_threshold_price'),
      ts('published_at'),
      utf8Column(rows.map((r) => r.published_local)),
    ];
  },
  fromTable(table: Table, partition: string) {
    const v = (name: string) => table.getChild(name)!;
    // Layout 2 keeps the exchange in the path only; a layout-1 file (0.1.0) still has the column.
    const exchangeColumn = table.getChild('exchange');
    const pathExchange = exchangeColumn ? undefined : partitionKey(partition, 'exchange');
    const scale = (table.schema.fields.find((f) => f.name === 'pause_threshold_price')!.type as Decimal).scale;
    const rows: HaltRow[] = [];
    for (let i = 0; i < table.numRows; i++) {
      rows.push({
        exchange: pathExchange ?? exchangeColumn!.get(i),
        symbol: v('symbol').get(i),
        name: v('name').get(i),
        reason: v('reason').get(i),
        period: v('period').get(i),
        halt_at: readTimestamp(v('halt_at'), i),
        halt_local: v('halt_local').get(i),
        resume_quote_at: readTimestamp(v('resume_quote_at'), i),
        resume_trade_at: readTimestamp(v('resume_trade_at'), i),
        resume_local: v('resume_local').get(i),
        source_exchange: v('source_exchange').get(i),
        pause_threshold_price: readDecimal(v('pause_threshold_price'), i, scale),
        published_at: readTimestamp(v('published_at'), i)!,
        published_local: v('published_local').get(i),
      });
    }
    return rows;
  },
  metadata: (rows) => ({
    'quotelake.ts': 'halt_at: halt start (UTC); *_local: exchange-local text as published',
    'quotelake.source_endpoint': [...new Set(rows.map((r) => `/api/suspension/${r.exchange}`))].sort().join(','),
  }),
};
