import { describe, expect, it } from 'vitest';
import { signedValueProblem, withSuggestion } from '../../src/cli/usage-suggestions.js';

describe('signedValueProblem', () => {
  it('a value with a minus, read as short flags, is said as such, with the ways to write it', () => {
    expect(signedValueProblem(['run', 'demo', '--since', '-3d'])).toBe(
      '--since -3d: a value that starts with "-" is read as flags; a span or a duration has no sign (--since 3d), and --since=-3d passes it as it is',
    );
    // -1h would be -1 and -h: help, exit 0, nothing vacuumed.
    expect(signedValueProblem(['vacuum', '--retention', '-1h'])).toMatch(/^--retention -1h: a value that starts with "-"/);
    for (const fine of [['run', 'demo', '--since=-3d'], ['run', '-q', 'demo'], ['run', 'demo', '--', '--since', '-3d'], ['vacuum', '--dry-run', '-V'], ['inspect', '--runs', '-1'], ['worker', '--coordinator-patience', '-2.5']]) {
      expect(signedValueProblem(fine), fine.join(' ')).toBeUndefined();
    }
  });
});

describe('withSuggestion', () => {
  it('a misspelt flag gets the nearest option; a stray word is left as yargs wrote it', () => {
    expect(withSuggestion('Unknown argument: fromat', ['run', 'demo', '--fromat', 'ndjson'], ['format', 'output'])).toBe('Unknown argument: fromat; did you mean --format?');
    expect(withSuggestion('Unknown argument: extra', ['run', 'demo', 'extra'], ['format'])).toBe('Unknown argument: extra');
    // A misspelt subcommand is the word named, not the command before it.
    expect(withSuggestion('Did you mean show?', ['state', 'sho', '--output', 'out'], [])).toBe('unknown command "sho"; did you mean show?');
    expect(withSuggestion('Did you mean reset?', ['state', 'rest'], [])).toBe('unknown command "rest"; did you mean reset?');
    expect(withSuggestion('Did you mean validate?', ['valdate', 'p.yaml'], [])).toBe('unknown command "valdate"; did you mean validate?');
  });
});
