/** kline-latest refuses 2h and 4h on stocks as kline-history does: at the interval, with the way out. */
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../helpers/pipeline-refusal.js';

function messageOf(type: string): string {
  const yaml = ['name: bad', 'source:', `  type: ${type}`, '  codes: [BTCUSDT, AAPL.US]', '  intervals: [1h, 4h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n');
  return refusalOf(yaml, 'bad.yaml');
}

describe('2h and 4h on a stock', () => {
  it('kline-latest names the interval, the code and what to drop, in the words of kline-history', () => {
    const expected = 'bad.yaml:5:19: source.intervals[1]: 4h bars are not served for AAPL.US (stocks and indexes have no 2h or 4h bars); drop it or the code at codes[1]';
    expect(messageOf('kline-latest')).toBe(expected);
    expect(messageOf('kline-history')).toBe(expected);
  });
});
