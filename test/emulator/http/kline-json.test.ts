import { describe, expect, it } from 'vitest';
import type { WireKline } from '../../../src/emulator/contracts.js';
import { klineListJson } from '../../../src/emulator/http/kline-json.js';

const bar = (t: number, extra = ''): WireKline => ({
  timestamp: String(t),
  open_price: '1.5',
  close_price: `1.6${extra}`,
  high_price: '1.7',
  low_price: '1.4',
  volume: '10',
  turnover: '15',
});

describe('klineListJson', () => {
  it('equals JSON.stringify, frozen (cached) or not, including characters that need escaping', () => {
    const frozen = Object.freeze(bar(60));
    const open = bar(120, '"\\\n');
    const list = [frozen, open];
    expect(klineListJson(list)).toBe(JSON.stringify(list));
    expect(klineListJson(list)).toBe(JSON.stringify(list)); // second time from the cache
    open.close_price = '9.9'; // a mutable (forming) bar is never cached
    expect(klineListJson(list)).toBe(JSON.stringify(list));
    expect(klineListJson([])).toBe('[]');
  });
});
