import { describe, expect, it } from 'vitest';
import { STATE_SUBCOMMANDS } from '../../src/cli/commands/state.js';
import { commandWords, signedValueProblem, usageHint, withSuggestion } from '../../src/cli/usage-suggestions.js';

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

  it('a value not among the choices gets the nearest one, when one is near', () => {
    expect(withSuggestion('Invalid values:\n  Argument: format, Given: "parqet", Choices: "parquet", "arrow", "ndjson"', ['run', 'demo', '--format', 'parqet'], [])).toBe(
      'Invalid values:\n  Argument: format, Given: "parqet", Choices: "parquet", "arrow", "ndjson"; did you mean "parquet"?',
    );
    expect(withSuggestion('Invalid values:\n  Argument: format, Given: "csv", Choices: "parquet", "arrow", "ndjson"', ['run', 'demo', '--format', 'csv'], [])).toBe(
      'Invalid values:\n  Argument: format, Given: "csv", Choices: "parquet", "arrow", "ndjson"',
    );
  });

  it('one unknown flag is one unknown argument, named as typed (not also camel-cased, not without its no-)', () => {
    expect(withSuggestion('Unknown arguments: base-url, baseUrl', ['list', '--base-url', 'http://x'], ['json'])).toBe('Unknown argument: base-url');
    expect(withSuggestion('Unknown arguments: base-ur, baseUr', ['run', 'demo', '--base-ur=x'], ['base-url', 'baseUrl'])).toBe('Unknown argument: base-ur; did you mean --base-url?');
    expect(withSuggestion('Unknown arguments: metrics-prot, metricsProt, bogus-thing, bogusThing', ['run', 'demo', '--metrics-prot', '1', '--bogus-thing', '2'], ['metrics-port'])).toBe(
      'Unknown arguments: metrics-prot, bogus-thing; did you mean --metrics-port?',
    );
    // Both spellings typed: both named.
    expect(withSuggestion('Unknown arguments: dry-run, dryRun', ['list', '--dry-run', '--dryRun'], [])).toBe('Unknown arguments: dry-run, dryRun');
    expect(withSuggestion('Unknown argument: state', ['plan', 'demo', '--no-state'], ['json'])).toBe('Unknown argument: no-state');
  });
});

describe('usageHint', () => {
  const commands = ['run', 'state', 'queue'];
  it("names the subcommand's help, which lists its options (`state --help` lists none of show's)", () => {
    expect(STATE_SUBCOMMANDS).toEqual(['show', 'reset']);
    const subcommands = { state: STATE_SUBCOMMANDS };
    expect(usageHint(['state', 'show', '--strem', 'BTC*'], commands, subcommands)).toBe('run "quotelake state show --help" for usage');
    expect(usageHint(['state', '--output', 'out', 'reset', '--ys'], commands, subcommands)).toBe('run "quotelake state reset --help" for usage');
    expect(usageHint(['state', '--bogus'], commands, subcommands)).toBe('run "quotelake state --help" for usage');
    expect(usageHint(['run', 'show', '--bogus'], commands, subcommands)).toBe('run "quotelake run --help" for usage');
    expect(usageHint(['nope'], commands, subcommands)).toBe('run "quotelake --help" (or "quotelake <command> --help") for usage');
    // Options before the command, with their values, as the parser reads them; a flag that took the
    // command for its value (`--quiet run`) still gets the help of the command typed.
    expect(usageHint(['--log-format', 'json', 'run', 'demo', '--bogus'], commands, subcommands)).toBe('run "quotelake run --help" for usage');
    expect(usageHint(['--quiet', 'run', 'demo'], commands, subcommands)).toBe('run "quotelake run --help" for usage');
  });

  it("commandWords: a --json error document's command, as the commands' own documents name it", () => {
    const subcommands = { state: STATE_SUBCOMMANDS, queue: ['status', 'drop'] };
    expect(commandWords(['queue', 'drop', 'alpha', '--json'], commands, subcommands)).toBe('queue drop');
    expect(commandWords(['state', '--json', 'reset'], commands, subcommands)).toBe('state reset');
    expect(commandWords(['run', 'demo', '--json'], commands, subcommands)).toBe('run');
    expect(commandWords(['--json'], commands, subcommands)).toBeUndefined();
    expect(commandWords(['nope', '--json'], commands, subcommands)).toBeUndefined();
  });
});
