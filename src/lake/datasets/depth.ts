import type { Decimal, List, Struct, Table, TimestampMillisecond } from 'apache-arrow';
import type { DepthRow } from '../../core/records.js';
import { datasetSchema } from '../../core/schemas.js';
import { utcDate } from '../../core/time.js';
import { levelListColumn, readLevels, readTimestamp, timestampColumn, utf8Column } from '../columns/arrow-columns.js';
import type { DatasetSpec } from './dataset-spec.js';
import { decimalMisfit } from '../columns/decimal-misfit.js';
import { partitionSegment } from '../partition-path.js';
import { sourceEndpoints } from './source-endpoints.js';

export const depthSpec: DatasetSpec<DepthRow> = {
  dataset: 'depth',
  partition: (row) => partitionSegment('date', utcDate(row.ts)),
  group: (row) => row.code,
  order: (row) => row.seq,
  seriesKey: (row) => row.code,
  seriesTime: (row) => row.ts,
  columnarKeys: { group: 'code', order: 'seq', time: 'ts' },
  bytesPerRow: (row) => 200 + 120 * (row.bids.length + row.asks.length),
  columns(rows, decimal) {
    const schema = datasetSchema('depth', decimal);
    const type = (name: string) => schema.fields.find((f) => f.name === name)!.type;
    return [
      utf8Column(rows.map((r) => r.code)),
      timestampColumn(type('ts') as TimestampMillisecond, rows.map((r) => r.ts)),
      utf8Column(rows.map((r) => r.seq)),
      timestampColumn(type('fetched_at') as TimestampMillisecond, rows.map((r) => r.fetched_at)),
      levelListColumn(type('bids') as List<Struct>, rows.map((r) => r.bids), 'bids'),
      levelListColumn(type('asks') as List<Struct>, rows.map((r) => r.asks), 'asks'),
    ];
  },
  decimalCheck: (decimal) => (row, stream) => {
    for (const side of ['bids', 'asks'] as const) {
      const levels = row[side];
      for (let i = 0; i < levels.length; i++) {
        const bad =
          decimalMisfit(row, stream, `${side}[${i}].price`, levels[i]!.price, decimal) ??
          decimalMisfit(row, stream, `${side}[${i}].volume`, levels[i]!.volume, decimal);
        if (bad) return bad;
      }
    }
    return undefined;
  },
  fromTable(table: Table) {
    const v = (name: string) => table.getChild(name)!;
    const listType = table.schema.fields.find((f) => f.name === 'bids')!.type as List<Struct>;
    const scale = ((listType.children[0]!.type as Struct).children[0]!.type as Decimal).scale;
    const rows: DepthRow[] = [];
    for (let i = 0; i < table.numRows; i++) {
      rows.push({
        code: v('code').get(i),
        ts: readTimestamp(v('ts'), i)!,
        seq: v('seq').get(i),
        fetched_at: readTimestamp(v('fetched_at'), i)!,
        bids: readLevels(v('bids'), i, scale),
        asks: readLevels(v('asks'), i, scale),
      });
    }
    return rows;
  },
  metadata: (rows) => ({ 'quotelake.ts': 'book time (UTC)', 'quotelake.source_endpoint': sourceEndpoints(rows, '/depth-tick') }),
};
