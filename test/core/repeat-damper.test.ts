import { describe, expect, it } from 'vitest';
import { repeatDamper } from '../../src/core/repeat-damper.js';

describe('repeatDamper', () => {
  it('says a message once per window and counts the repeats in the next line', () => {
    let now = 1_000_000;
    const damp = repeatDamper(() => now, 60_000);
    expect(damp('queue error: connect ECONNREFUSED')).toBe('queue error: connect ECONNREFUSED');
    for (let i = 0; i < 40; i++) {
      now += 1_000;
      expect(damp('queue error: connect ECONNREFUSED')).toBeUndefined();
    }
    // Another message is its own line at once.
    expect(damp('queue error: read ECONNRESET')).toBe('queue error: read ECONNRESET');
    now += 20_000;
    expect(damp('queue error: connect ECONNREFUSED')).toBe('queue error: connect ECONNREFUSED (40 more times in the last 60 s)');
    now += 1_000;
    expect(damp('queue error: connect ECONNREFUSED')).toBeUndefined();
  });

  it('a message quiet for a window is new again, without a count', () => {
    let now = 0;
    const damp = repeatDamper(() => now, 10_000);
    expect(damp('a')).toBe('a');
    now = 10_000;
    expect(damp('a')).toBe('a');
    now = 10_001;
    expect(damp('a')).toBeUndefined();
    now = 20_000;
    expect(damp('a')).toBe('a (1 more time in the last 10 s)');
  });
});
