/**
 * parse-decimals: raw K-lines, trades and depth ticks (wire strings) → typed rows with exact
 * decimals and UTC instants. A value that is malformed or does not fit its column's DECIMAL(p,s)
 * becomes a rejected record naming code, field and value; nothing is ever rounded.
 */
import * as z from 'zod';
import { BatchWords, KLINE_DECIMALS, TRADE_DECIMALS, WordsPool } from '../../core/carried-words.js';
import type { Rejected, Transform, TransformResult, Batch } from '../../core/component.js';
import { assertDecimalType, DEFAULT_DECIMAL, type DecimalType } from '../../core/decimal.js';
import { decimalTypeSchema } from '../../core/decimal-config.js';
import type { TransformDefinition } from '../../core/definition.js';
import type { DepthRow, KlineRow, RawDepth, RawKline, RawTrade, TradeRow } from '../../core/records.js';
import { klineLaneAt } from '../../core/kline-lane.js';
import { laneOf } from '../../core/lazy-rows.js';
import { rejectField } from '../reject-field.js';
import { parseKlineLane } from './parse-kline-lane.js';
import { parseDepth, parseKline, parseTrade, type ColumnTypes, type FieldError } from './parse-rows.js';

export type RawMarketRecord = RawKline | RawTrade | RawDepth;
export type MarketRow = KlineRow | TradeRow | DepthRow;


const DECIMAL_COLUMNS = ['open', 'high', 'low', 'close', 'volume', 'turnover', 'price'] as const;

export const parseDecimalsConfigSchema = z.strictObject({
  /** Column type for every decimal column not listed in `columns`. */
  decimal: decimalTypeSchema.default({ ...DEFAULT_DECIMAL }).describe('DECIMAL(precision, scale) every value must fit (default 38,18); a value that does not is rejected, never rounded.'),
  /** Per-column override by column name; `price` and `volume` also apply to depth levels. */
  columns: z.strictObject(Object.fromEntries(DECIMAL_COLUMNS.map((c) => [c, decimalTypeSchema.optional()])) as Record<(typeof DECIMAL_COLUMNS)[number], z.ZodOptional<typeof decimalTypeSchema>>).default({}).describe('Per-column DECIMAL overrides: open, high, low, close, volume, turnover, price (price and volume also apply to depth levels).'),
});

export type ParseDecimalsConfig = z.infer<typeof parseDecimalsConfigSchema>;

export function resolveColumnTypes(config: ParseDecimalsConfig): ColumnTypes {
  const pick = (c: (typeof DECIMAL_COLUMNS)[number]): DecimalType => {
    const t = config.columns[c] ?? config.decimal;
    assertDecimalType(t);
    return { precision: t.precision, scale: t.scale };
  };
  return {
    open: pick('open'),
    high: pick('high'),
    low: pick('low'),
    close: pick('close'),
    volume: pick('volume'),
    turnover: pick('turnover'),
    price: pick('price'),
  };
}

/**
 * A record's kind. The snapshot sources name their stream after the dataset, which is what decides:
 * a malformed tick (no `bids`, or not an object) must still be judged as the kind it was fetched as.
 */
function kindOf(record: RawMarketRecord, stream: string): 'kline' | 'depth' | 'trade' {
  if ('bar' in record) return 'kline';
  if (stream === 'depth' || stream === 'trade') return stream;
  const tick = record.tick as unknown;
  return typeof tick === 'object' && tick !== null && ('bids' in tick || 'asks' in tick) ? 'depth' : 'trade';
}

export class ParseDecimals implements Transform<RawMarketRecord, MarketRow> {
  private readonly klineScales: readonly number[];
  private readonly tradeScales: readonly number[];
  /** This transform's reusable word buffers (see carried-words.ts): no state shared across the process. */
  private readonly words = new WordsPool();

  constructor(readonly types: ColumnTypes) {
    this.klineScales = KLINE_DECIMALS.map((c) => types[c].scale);
    this.tradeScales = TRADE_DECIMALS.map((c) => types[c].scale);
  }

  apply(batch: Batch<RawMarketRecord>): TransformResult<RawMarketRecord, MarketRow> {
    const records = batch.records;
    const lane = klineLaneAt(laneOf(records), 'raw');
    const laneRows = lane === undefined ? undefined : parseKlineLane(lane, this.types);
    if (laneRows !== undefined) return { output: { ...batch, records: laneRows }, rejected: [] };
    const rows: MarketRow[] = [];
    let rejected: Rejected<RawMarketRecord>[] | undefined;
    // One words buffer per batch, shaped by its first record (a source's batches are of one kind);
    // a record of another kind simply carries no words.
    const first = records[0];
    const kind = first === undefined ? undefined : kindOf(first, batch.stream);
    const words =
      kind === 'kline'
        ? new BatchWords(records.length, this.klineScales, this.words)
        : kind === 'trade'
          ? new BatchWords(records.length, this.tradeScales, this.words)
          : undefined;
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      let out: MarketRow | FieldError;
      const own = i === 0 ? kind : kindOf(record, batch.stream);
      if (own === 'kline') out = parseKline(record as RawKline, this.types, kind === 'kline' ? words : undefined, rows.length);
      else if (own === 'depth') out = parseDepth(record as RawDepth, this.types);
      else out = parseTrade(record as RawTrade, this.types, kind === 'trade' ? words : undefined, rows.length);
      if ('failure' in out) (rejected ??= []).push(rejectField(record, batch.stream, out.field, out.value, out.failure));
      else rows.push(out);
    }
    const output: Batch<MarketRow> = { ...batch, records: rows };
    return { output, rejected: rejected ?? [] };
  }
}

export const parseDecimals: TransformDefinition<ParseDecimalsConfig, RawMarketRecord, MarketRow> = {
  kind: 'transform',
  type: 'parse-decimals',
  keepsNoRecords: true,
  summary: 'Turn wire strings into exact decimals (DECIMAL(p,s), default 38,18) and UTC instants; reject, never round.',
  configSchema: parseDecimalsConfigSchema,
  maps: { 'raw-kline': 'kline-row', 'raw-trade': 'trade-row', 'raw-depth': 'depth-row' },
  examples: [{}, { decimal: { precision: 38, scale: 18 } }, { columns: { volume: { precision: 30, scale: 8 } } }],
  create(config) {
    return new ParseDecimals(resolveColumnTypes(config));
  },
};
