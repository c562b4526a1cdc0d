/** The name `init` suggests for one it refuses: valid, and as close to what was typed as it can be. */
import { describe, expect, it } from 'vitest';
import { suggestName } from '../../src/cli/actions/init.js';

describe('init name suggestion', () => {
  it('keeps letters without their accents, lowers case, turns every other run into one dash', () => {
    expect(suggestName('Ünïcode')).toBe('unicode');
    expect(suggestName('Crème Brûlée 2')).toBe('creme-brulee-2');
    expect(suggestName('My Klines')).toBe('my-klines');
    expect(suggestName('../../etc/passwd')).toBe('etc-passwd');
    expect(suggestName('ﬁx')).toBe('fix');
  });

  it('falls back to my-pipeline when nothing of the name is left', () => {
    expect(suggestName('東京')).toBe('my-pipeline');
    expect(suggestName('---')).toBe('my-pipeline');
  });
});
