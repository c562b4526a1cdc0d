/** A lone "-" is refused before parsing (the parser would make it an empty value); after "--" and while completing it is left alone. */
import { describe, expect, it } from 'vitest';
import { checkLoneDash } from '../../src/cli/lone-dash.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('checkLoneDash', () => {
  it('refuses "-" as any argument, with what to give instead', () => {
    for (const argv of [['validate', '-'], ['run', 'demo', '-', '--quiet'], ['inspect', '-']]) {
      expect(() => checkLoneDash(argv), argv.join(' ')).toThrow(UsageError);
    }
    try {
      checkLoneDash(['validate', '-']);
    } catch (e) {
      expect((e as UsageError).hint).toBe('give a pipeline file\'s path or a shipped pipeline\'s name ("quotelake list" shows them); save piped YAML to a file first');
    }
  });

  it('leaves options, negative spans, "--" and its words, and shell completion alone', () => {
    for (const argv of [['run', 'demo', '--since', '2d'], ['run', '--', '-'], ['--get-yargs-completions', 'run', '-'], ['run', '-q']]) {
      expect(() => checkLoneDash(argv), argv.join(' ')).not.toThrow();
    }
  });
});
