import { describe, expect, it } from 'vitest';
import { checkStreamGlobs, streamMatcher } from '../../src/cli/stream-glob.js';

const KEYS = ['kline/BTCUSDT/1m', 'kline/BTCUSDT/1h', 'kline/ETHUSDT/1m', 'kline/AAPL.US/1d', 'halt/SSE', 'depth'];
const pick = (...globs: string[]) => KEYS.filter(streamMatcher(globs));

describe('--stream globs', () => {
  it('match the whole key or the key after its dataset', () => {
    expect(pick('BTC*')).toEqual(['kline/BTCUSDT/1m', 'kline/BTCUSDT/1h']);
    expect(pick('*/1m')).toEqual(['kline/BTCUSDT/1m', 'kline/ETHUSDT/1m']);
    expect(pick('kline/*')).toEqual(KEYS.slice(0, 4));
    expect(pick('halt/*', 'depth')).toEqual(['halt/SSE', 'depth']);
    expect(pick('SSE')).toEqual(['halt/SSE']);
  });

  it('? is one character; the rest is literal and case-sensitive', () => {
    expect(pick('BTCUSDT/1?')).toEqual(['kline/BTCUSDT/1m', 'kline/BTCUSDT/1h']);
    expect(pick('AAPL?US/1d')).toEqual(['kline/AAPL.US/1d']);
    expect(pick('AAPL.U')).toEqual([]);
    expect(pick('btc*')).toEqual([]);
    expect(pick('BTCUSDT')).toEqual([]); // a key part, not a prefix: BTCUSDT/* or BTC* for the series
  });

  it('no glob selects every stream', () => {
    expect(pick()).toEqual(KEYS);
    expect(KEYS.filter(streamMatcher(undefined))).toEqual(KEYS);
  });

  it('a --stream given without a glob, or with an empty one, is refused rather than taken for none', () => {
    expect(() => checkStreamGlobs(undefined)).not.toThrow();
    expect(() => checkStreamGlobs(['BTC*'])).not.toThrow();
    expect(() => checkStreamGlobs([])).toThrow('--stream needs a glob: given without one it would select every stream');
    expect(() => checkStreamGlobs(['BTC*', ''])).toThrow('--stream "": an empty glob matches no stream');
  });
});
