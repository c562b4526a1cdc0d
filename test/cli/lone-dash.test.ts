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

  it('"-" as a folder (--output -, --output=-, --state-dir=-) says how NDJSON reaches stdout instead; "=-" after another option is a lone dash too', () => {
    for (const argv of [['run', 'demo', '--output', '-'], ['run', 'demo', '--output=-'], ['run', 'demo', '--state-dir=-', '--quiet']]) {
      const option = argv.find((w) => w.startsWith('--output') || w.startsWith('--state-dir'))!.replace('=-', '');
      expect(() => checkLoneDash(argv), argv.join(' ')).toThrow(`${option} -: "-" is no folder, and quotelake writes no lake to standard output`);
      try {
        checkLoneDash(argv);
      } catch (e) {
        expect((e as UsageError).hint).toContain('for NDJSON on stdout add --format ndjson');
      }
    }
    expect(() => checkLoneDash(['run', 'demo', '--plans-file=-'])).toThrow('"-" is not a pipeline, file or folder: quotelake reads nothing from standard input');
  });

  it('leaves options, negative spans, "--" and its words, and shell completion alone', () => {
    for (const argv of [['run', 'demo', '--since', '2d'], ['run', '--', '-'], ['run', '--', '--output=-'], ['--get-yargs-completions', 'run', '-'], ['run', '-q'], ['run', 'demo', '--since=-3d']]) {
      expect(() => checkLoneDash(argv), argv.join(' ')).not.toThrow();
    }
  });
});
