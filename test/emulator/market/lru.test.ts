import { describe, expect, it } from 'vitest';
import { Lru } from '../../../src/emulator/market/lru.js';

describe('Lru', () => {
  it('stays bounded and keeps recently used entries', () => {
    const lru = new Lru<number, string>(10);
    for (let i = 0; i < 100; i++) {
      lru.set(i, `v${i}`);
      expect(lru.get(0)).toBe('v0'); // used constantly: never evicted
      expect(lru.size).toBeLessThanOrEqual(10);
    }
    expect(lru.get(99)).toBe('v99');
    expect(lru.get(1)).toBeUndefined();
  });

  it('overwrites a value', () => {
    const lru = new Lru<string, number>(4);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3); // rolls 'a','b' into the old generation
    lru.set('a', 9);
    expect(lru.get('a')).toBe(9);
    expect(lru.size).toBeLessThanOrEqual(4);
  });
});
