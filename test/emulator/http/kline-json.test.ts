import { describe, expect, it } from 'vitest';
import type { WireKline } from '../../../src/emulator/contracts.js';
import { klineListChunks, klineListJson } from '../../../src/emulator/http/kline-json.js';

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

describe('klineListChunks', () => {
  const join = (chunks: (string | Buffer)[]) => chunks.map((c) => c.toString()).join('');
  it('joins to prefix + JSON + suffix, reusing the frozen run only for the very same bars', () => {
    const frozen = Array.from({ length: 5 }, (_, i) => Object.freeze(bar(60 * (i + 1))));
    const forming = bar(400);
    const list = [...frozen, forming];
    const a = klineListChunks('<', list, '>');
    expect(join(a)).toBe(`<${JSON.stringify(list)}>`);
    const b = klineListChunks('<', list, '>');
    expect(b[1]).toBe(a[1]); // the same cached Buffer
    // same first bar, a different (equal-looking but new) bar inside: not reused
    const other = [...frozen.slice(0, 2), Object.freeze(bar(999)), ...frozen.slice(3), forming];
    const c = klineListChunks('<', other, '>');
    expect(join(c)).toBe(`<${JSON.stringify(other)}>`);
    expect(join(klineListChunks('', frozen, ''))).toBe(JSON.stringify(frozen));
    expect(join(klineListChunks('', [forming], ''))).toBe(JSON.stringify([forming]));
    expect(join(klineListChunks('', [], ''))).toBe('[]');
  });
});
