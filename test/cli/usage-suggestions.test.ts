import { describe, expect, it } from 'vitest';
import { withSuggestion } from '../../src/cli/usage-suggestions.js';

describe('withSuggestion', () => {
  it('a value with a minus, read as short flags, is said as such, with the ways to write it', () => {
    expect(withSuggestion('Unknown arguments: 3, d', ['run', 'demo', '--since', '-3d'], ['since'])).toBe(
      '--since -3d: a value that starts with "-" is read as flags; a span back from now has no sign (--since 3d), and --since=-3d passes it as it is',
    );
  });

  it('a misspelt flag gets the nearest option; a stray word is left as yargs wrote it', () => {
    expect(withSuggestion('Unknown argument: fromat', ['run', 'demo', '--fromat', 'ndjson'], ['format', 'output'])).toBe('Unknown argument: fromat; did you mean --format?');
    expect(withSuggestion('Unknown argument: extra', ['run', 'demo', 'extra'], ['format'])).toBe('Unknown argument: extra');
  });
});
