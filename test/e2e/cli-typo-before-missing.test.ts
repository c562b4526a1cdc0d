/**
 * A misspelt flag on a line that also lacks its command's argument (`run --hlep`, `plan --fromat
 * arrow`, `--versoin run`), through the built CLI: the typo is what the user got wrong, so it is
 * named with the nearest flag, not "name a pipeline" or "Name a command" (yargs checks those first,
 * and `--versoin run` even took the command for the flag's value).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('a misspelt flag where an argument is missing too', () => {
  it.each([
    [['run', '--hlep'], 'Unknown argument: hlep; did you mean --help?'],
    [['plan', '--fromat', 'arrow'], 'Unknown argument: fromat; did you mean --format?'],
    [['enqueue', '--evry', '0 * * * *'], 'Unknown argument: evry; did you mean --every?'],
    [['completion', '--hlep'], 'Unknown argument: hlep; did you mean --help?'],
    [['queue', '--al'], 'Unknown argument: al; did you mean --all?'],
    [['--versoin', 'run'], 'Unknown argument: versoin; did you mean --version?'],
    [['--colr'], 'Unknown argument: colr; did you mean --color?'],
  ])('%j: exit 2 naming the flag', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`quotelake: ${message}`);
  });

  it.each([
    [['run', '--quiet', '--no-color'], 'quotelake: name a pipeline to run: '],
    [['--color'], 'quotelake: Name a command; see --help.'],
  ])('%j: declared flags only, the missing argument is said as before', async (args, start) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(start)).toBe(true);
  });
});
