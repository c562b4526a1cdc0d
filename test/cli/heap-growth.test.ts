import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../src/cli/heap-growth.js';

describe('heapGrowthFlag', () => {
  it('lets the heap grow to 1.75 times the live set at most by default', () => {
    expect(heapGrowthFlag([], undefined)).toBe('--heap-growing-percent=75');
    expect(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe('--heap-growing-percent=75');
  });

  it("keeps the user's own choice, on the command line or in NODE_OPTIONS", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=300'], undefined)).toBeNull();
    expect(heapGrowthFlag([], '--max-old-space-size=512 --heap_growing_percent=50')).toBeNull();
  });
});
