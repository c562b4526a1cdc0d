/**
 * The Decimal128 words parse-decimals computes travel with the batch's rows, from buffers each
 * transform instance owns: no module state links one pipeline's transform to another's rows, and a
 * row that outlives its buffer's reuse carries no words (the sink converts its text instead).
 */
import { describe, expect, it } from 'vitest';
import { KLINE_DECIMALS, RowWithWords } from '../../src/core/carried-words.js';
import { wordsToBigInt } from '../../src/core/decimal.js';
import { parseDecimals } from '../../src/transforms/parse-decimals/index.js';
import { rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, sinkEnv } from '../sinks/helpers.js';

const SCALE = 18;
const make = () => parseDecimals.create(parseDecimals.configSchema.parse({}), sinkEnv('/tmp', 'kline'));

function parse(transform: ReturnType<typeof make>, close: string): object {
  const { output } = transform.apply({ stream: 'k', seq: 1, records: [rawKline('BTCUSDT', '1m', T0, close)] }, runContext());
  return output.records[0]!;
}

/** The close's words as the row carries them, or undefined when it carries none any more. */
function carriedClose(row: object): bigint | undefined {
  const dests = KLINE_DECIMALS.map(() => new Uint32Array(4));
  if (!RowWithWords.copyAllWords(row, SCALE, dests, 0)) return undefined;
  return wordsToBigInt(dests[KLINE_DECIMALS.indexOf('close')]!);
}

describe('carried words', () => {
  it("one transform's batches never reuse another's buffers", () => {
    const a = make();
    const b = make();
    const row = parse(a, '1.5');
    for (let i = 0; i < 40; i++) parse(b, '2.5');
    expect(carriedClose(row)).toBe(15n * 10n ** 17n);
  });

  it("a row whose buffer its own transform reused carries no words (late never means stale)", () => {
    const a = make();
    const row = parse(a, '1.5');
    for (let i = 0; i < 40; i++) parse(a, '2.5');
    expect(carriedClose(row)).toBeUndefined();
  });
});
