/** Arrow schemas → Delta schemas, partition columns that match the hive paths, paths and stats. */
import { Field, Schema, TimestampMillisecond } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DeltaLogError } from '../../../src/core/errors.js';
import type { DepthRow, HaltRow, KlineRow, TradeRow } from '../../../src/core/records.js';
import { datasetSpec } from '../../../src/lake/datasets/index.js';
import {
  addAction,
  datasetSchemaString,
  decodeDeltaPath,
  deltaSchemaOf,
  deltaStatsOfSeries,
  DELTA_PARTITION_COLUMNS,
  encodeDeltaPath,
  fileKeyOf,
  watermarkAppId,
  watermarksOf,
} from '../../../src/lake/delta/index.js';
import { partitionSegment } from '../../../src/lake/partition-path.js';

const ts = Date.UTC(2026, 10, 21, 1, 30);
type Field_ = { name: string; type: unknown; nullable: boolean };
const fieldsOf = (dataset: 'kline' | 'trade' | 'depth' | 'halt') => (JSON.parse(datasetSchemaString(dataset)) as { fields: Field_[] }).fields;

describe('Delta schema of the datasets', () => {
  it('maps the column types and appends the hive keys as partition columns', () => {
    const kline = fieldsOf('kline');
    expect(kline.map((f) => [f.name, f.type])).toEqual([
      ['code', 'string'], ['ts', 'timestamp'], ['open', 'decimal(38,18)'], ['high', 'decimal(38,18)'], ['low', 'decimal(38,18)'],
      ['close', 'decimal(38,18)'], ['volume', 'decimal(38,18)'], ['turnover', 'decimal(38,18)'], ['final', 'boolean'],
      ['interval', 'string'], ['year', 'integer'], ['date', 'date'],
    ]);
    expect(fieldsOf('trade').find((f) => f.name === 'direction')!.type).toBe('byte');
    expect(JSON.parse(datasetSchemaString('trade', { precision: 20, scale: 6 })).fields.find((f: Field_) => f.name === 'price').type).toBe('decimal(20,6)');
    expect(fieldsOf('depth').find((f) => f.name === 'bids')).toEqual({
      name: 'bids',
      type: {
        type: 'array',
        elementType: { type: 'struct', fields: [
          { name: 'price', type: 'decimal(38,18)', nullable: false, metadata: {} },
          { name: 'volume', type: 'decimal(38,18)', nullable: true, metadata: {} },
        ] },
        containsNull: false,
      },
      nullable: false,
      metadata: {},
    });
    const halt = fieldsOf('halt');
    expect(halt.find((f) => f.name === 'halt_at')).toMatchObject({ type: 'timestamp', nullable: true });
    expect(halt.slice(-2).map((f) => [f.name, f.type])).toEqual([['exchange', 'string'], ['year', 'integer']]);
  });

  it('declares as partition columns exactly the hive keys each dataset writes', () => {
    const samples = {
      kline: [{ interval: '1m', ts } as KlineRow, { interval: '1d', ts } as KlineRow],
      trade: [{ ts } as TradeRow],
      depth: [{ ts } as DepthRow],
      halt: [{ exchange: 'SSE', halt_at: null, published_at: ts } as unknown as HaltRow],
    } as const;
    for (const [dataset, rows] of Object.entries(samples)) {
      for (const row of rows) {
        const path = (datasetSpec(dataset as 'kline') as { partition(r: unknown): string }).partition(row);
        expect(path.split('/').map((s) => s.split('=')[0])).toEqual(DELTA_PARTITION_COLUMNS[dataset as 'kline'].map((c) => c.name));
      }
    }
  });

  it('refuses a timestamp without a time zone (it would need the timestampNtz feature)', () => {
    const schema = new Schema([new Field('t', new TimestampMillisecond(), false)]);
    expect(() => deltaSchemaOf(schema, [])).toThrow(DeltaLogError);
    expect(() => deltaSchemaOf(schema, [])).toThrow(/timestampNtz/);
  });
});

describe('Delta paths, partition values and stats', () => {
  it('escapes the %XX of a hive folder again in the path, and decodes the partition value', () => {
    const folder = `${partitionSegment('exchange', 'A B/C')}/${partitionSegment('year', '2026')}`;
    expect(folder).toBe('exchange=A%20B%2FC/year=2026');
    const add = addAction('halt', { relativeKey: `${folder}/part-r1-00001.parquet`, size: 10, modificationTime: ts });
    expect(add.path).toBe('exchange=A%2520B%252FC/year=2026/part-r1-00001.parquet');
    expect(add.partitionValues).toEqual({ exchange: 'A B/C', year: '2026' });
    expect(add.stats).toBeUndefined(); // a 0.1.0 file has no quotelake.series
    expect(decodeDeltaPath('halt', add.path)).toBe(`${folder}/part-r1-00001.parquet`);
    expect(fileKeyOf('halt', add.path)).toBe(`halt/${folder}/part-r1-00001.parquet`);
    expect(encodeDeltaPath('date=2026-11-21/é.parquet')).toBe('date=2026-11-21/%C3%A9.parquet');
    expect(() => decodeDeltaPath('t', 's3://bucket/x.parquet')).toThrow(/absolute path/);
  });

  it('refuses a file outside its partition folders', () => {
    expect(() => addAction('kline', { relativeKey: 'interval=1m/part-1.parquet', size: 1, modificationTime: ts })).toThrow(/no year= folder/);
    expect(() => addAction('trade', { relativeKey: 'date=__HIVE_DEFAULT_PARTITION__/p.parquet', size: 1, modificationTime: ts })).toThrow(/cannot be NULL/);
  });

  it('takes stats from quotelake.series: the code and the time column, never a decimal', () => {
    const series = new Map([
      ['9988.HK', { rows: 3, first: ts, last: ts + 120_000 }],
      ['700.HK', { rows: 2, first: ts + 60_000, last: ts + 180_123 }],
    ]);
    expect(deltaStatsOfSeries('trade', series)).toEqual({
      numRecords: 5,
      minValues: { code: '700.HK', ts: '2026-11-21T01:30:00.000Z' },
      maxValues: { code: '9988.HK', ts: '2026-11-21T01:33:00.123Z' },
      nullCount: { code: 0, ts: 0 },
    });
    // Halts: the series key is the exchange, a partition column, so only published_at.
    expect(deltaStatsOfSeries('halt', new Map([['SSE', { rows: 4, first: ts, last: ts }]]))).toEqual({
      numRecords: 4,
      minValues: { published_at: '2026-11-21T01:30:00.000Z' },
      maxValues: { published_at: '2026-11-21T01:30:00.000Z' },
      nullCount: { published_at: 0 },
    });
  });

  it('encodes a watermark per series in a txn appId that splits back unambiguously', () => {
    const appId = watermarkAppId('my:pipe', 'A:B');
    expect(appId).toBe('quotelake:my%3Apipe:A%3AB');
    const txns = new Map([[appId, { appId, version: ts }], [watermarkAppId('my', 'pipe:A'), { appId: watermarkAppId('my', 'pipe:A'), version: 1 }]]);
    expect(watermarksOf(txns, 'my:pipe')).toEqual(new Map([['A:B', ts]]));
  });
});
