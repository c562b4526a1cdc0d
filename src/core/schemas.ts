/**
 * The Arrow schemas of the four datasets (column names snake_case). Decimal columns use one
 * DECIMAL(p,s) per sink (default 38,18); instants are Timestamp(ms, "UTC").
 *
 * Primary keys (what a merge de-duplicates on):
 * - kline (code, interval, ts)      - trade (code, seq)      - depth (code, seq)
 * - halt (exchange, symbol, halt_at or else halt_local, published_at)
 */
import { Bool, Decimal, Field, Int8, List, Schema, Struct, TimestampMillisecond, Utf8, type DataType } from 'apache-arrow';
import { DEFAULT_DECIMAL, type DecimalType } from './decimal.js';
import type { Dataset } from './records.js';

/**
 * Bumped whenever a column is added, removed or retyped. 2: kline files no longer carry `interval`
 * nor halt files `exchange` (layout 2: a hive key lives in the partition path only, so no reader
 * sees one column twice).
 */
export const SCHEMA_VERSION = '2';

/** The columns each dataset keeps in its partition path only (never inside a file). */
export const PATH_ONLY_COLUMNS: Readonly<Record<Dataset, readonly string[]>> = {
  kline: ['interval'],
  trade: [],
  depth: [],
  halt: ['exchange'],
};

export const PRIMARY_KEYS: Readonly<Record<Dataset, readonly string[]>> = {
  kline: ['code', 'interval', 'ts'],
  trade: ['code', 'seq'],
  depth: ['code', 'seq'],
  halt: ['exchange', 'symbol', 'halt_at|halt_local', 'published_at'],
};

export function decimalArrowType(type: DecimalType = DEFAULT_DECIMAL): Decimal {
  return new Decimal(type.scale, type.precision, 128);
}

export function timestampArrowType(): TimestampMillisecond {
  return new TimestampMillisecond('UTC');
}

export function levelStructType(dec: DecimalType = DEFAULT_DECIMAL): Struct {
  return new Struct([new Field('price', decimalArrowType(dec), false), new Field('volume', decimalArrowType(dec), true)]);
}

export function levelListType(dec: DecimalType = DEFAULT_DECIMAL): List {
  return new List(new Field('item', levelStructType(dec), false));
}

function field(name: string, type: DataType, nullable = false): Field {
  return new Field(name, type, nullable);
}

export function datasetSchema(dataset: Dataset, dec: DecimalType = DEFAULT_DECIMAL): Schema {
  const d = () => decimalArrowType(dec);
  const t = () => timestampArrowType();
  switch (dataset) {
    case 'kline':
      return new Schema([
        field('code', new Utf8()),
        field('ts', t()),
        field('open', d()),
        field('high', d()),
        field('low', d()),
        field('close', d()),
        field('volume', d()),
        field('turnover', d()),
        field('final', new Bool()),
      ]);
    case 'trade':
      return new Schema([
        field('code', new Utf8()),
        field('ts', t()),
        field('seq', new Utf8()),
        field('price', d()),
        field('volume', d()),
        field('turnover', d()),
        field('direction', new Int8()),
        field('fetched_at', t()),
      ]);
    case 'depth':
      return new Schema([
        field('code', new Utf8()),
        field('ts', t()),
        field('seq', new Utf8()),
        field('fetched_at', t()),
        field('bids', levelListType(dec)),
        field('asks', levelListType(dec)),
      ]);
    case 'halt':
      return new Schema([
        field('symbol', new Utf8()),
        field('name', new Utf8(), true),
        field('reason', new Utf8(), true),
        field('period', new Utf8(), true),
        field('halt_at', t(), true),
        field('halt_local', new Utf8(), true),
        field('resume_quote_at', t(), true),
        field('resume_trade_at', t(), true),
        field('resume_local', new Utf8(), true),
        field('source_exchange', new Utf8(), true),
        field('pause_threshold_price', d(), true),
        field('published_at', t()),
        field('published_local', new Utf8()),
      ]);
  }
}
