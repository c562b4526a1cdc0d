import { describe, expect, it } from 'vitest';
import { controlCharacterProblem } from '../../src/core/control-characters.js';

describe('controlCharacterProblem', () => {
  it('names the first C0 control character or DEL, and lets any other text pass', () => {
    expect(controlCharacterProblem('out/lake')).toBeUndefined();
    expect(controlCharacterProblem('données/é ü 日本')).toBeUndefined();
    expect(controlCharacterProblem('a\u0000b')).toBe('contains a control character (U+0000, NUL)');
    expect(controlCharacterProblem('a\nb\tc')).toBe('contains a control character (U+000A, a line break)');
    expect(controlCharacterProblem('a\u001fb')).toBe('contains a control character (U+001F)');
    expect(controlCharacterProblem('a\u007fb')).toBe('contains a control character (U+007F)');
  });
});
