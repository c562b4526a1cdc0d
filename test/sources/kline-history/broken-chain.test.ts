import { describe, expect, it } from 'vitest';
import { takeChainBreak } from '../../../src/sources/kline-history/broken-chain.js';

describe('takeChainBreak', () => {
  it('takes out every page above the end, returns the nearest, and keeps those below', () => {
    const ahead = new Map([
      [900, 'a'],
      [700, 'b'],
      [500, 'c'],
      [300, 'd'],
    ]);
    expect(takeChainBreak(ahead, 600)).toEqual({ above: 'b', below: 500 });
    expect([...ahead.keys()]).toEqual([500, 300]);
  });

  it('a short page: only pages below, all kept', () => {
    const ahead = new Map([
      [500, 'c'],
      [300, 'd'],
    ]);
    expect(takeChainBreak(ahead, 800)).toEqual({ below: 500 });
    expect([...ahead.keys()]).toEqual([500, 300]);
  });

  it('missing bars took the walk below every page ahead: none kept', () => {
    const ahead = new Map([
      [500, 'c'],
      [300, 'd'],
    ]);
    expect(takeChainBreak(ahead, 200)).toEqual({ above: 'd' });
    expect(ahead.size).toBe(0);
  });
});
