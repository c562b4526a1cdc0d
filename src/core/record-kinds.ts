/**
 * The kinds of record that flow between pipeline stages, named after their types in records.ts.
 * Every component declares the kinds it takes and emits (src/core/definition.ts), so the linter can
 * refuse a chain whose stages do not fit before a single request is sent.
 */
import type { Dataset, DepthRow, HaltRow, KlineRow, RawDepth, RawHalt, RawKline, RawTrade, TradeRow } from './records.js';

/** Kind → the record type it names. */
export interface RecordKinds {
  'raw-kline': RawKline;
  'raw-trade': RawTrade;
  'raw-depth': RawDepth;
  'raw-halt': RawHalt;
  'kline-row': KlineRow;
  'trade-row': TradeRow;
  'depth-row': DepthRow;
  'halt-row': HaltRow;
}

export type RecordKind = keyof RecordKinds;

export interface RecordKindInfo {
  /** Plural words for messages, e.g. `raw K-lines`. */
  readonly label: string;
  readonly dataset: Dataset;
}

export const RECORD_KINDS: Readonly<Record<RecordKind, RecordKindInfo>> = {
  'raw-kline': { label: 'raw K-lines', dataset: 'kline' },
  'raw-trade': { label: 'raw trades', dataset: 'trade' },
  'raw-depth': { label: 'raw order books', dataset: 'depth' },
  'raw-halt': { label: 'raw halts', dataset: 'halt' },
  'kline-row': { label: 'parsed K-lines', dataset: 'kline' },
  'trade-row': { label: 'parsed trades', dataset: 'trade' },
  'depth-row': { label: 'parsed order books', dataset: 'depth' },
  'halt-row': { label: 'normalized halts', dataset: 'halt' },
};

export const ALL_RECORD_KINDS = Object.keys(RECORD_KINDS) as readonly RecordKind[];

/** The typed rows of the four datasets: what the table sinks (parquet, arrow) can write. */
export const ROW_KINDS: readonly RecordKind[] = ['kline-row', 'trade-row', 'depth-row', 'halt-row'];

type Matching<T> = { [K in RecordKind]: RecordKinds[K] extends T ? K : never }[RecordKind];

/**
 * The kinds whose records are a `T`, so a definition cannot declare a kind its code does not
 * handle (`KindOf<RawKline>` is `raw-kline`). A record type that is none of ours (a test's row)
 * may declare any kind.
 */
export type KindOf<T> = [Matching<T>] extends [never] ? RecordKind : Matching<T>;

export function kindLabel(kind: RecordKind): string {
  return RECORD_KINDS[kind].label;
}

/**
 * The decimal columns of each dataset that parse-decimals types (its `columns` keys): an override
 * of a column a dataset does not have changes nothing, so checks across stages ignore it.
 */
export const DATASET_DECIMAL_COLUMNS: Readonly<Record<Dataset, readonly string[]>> = {
  kline: ['open', 'high', 'low', 'close', 'volume', 'turnover'],
  trade: ['price', 'volume', 'turnover'],
  depth: ['price', 'volume'],
  halt: [],
};
