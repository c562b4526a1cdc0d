/**
 * Completion of a value typed in its option's own word (`--format=p`, `--output=pa`), the form
 * `--token=VALUE` takes, in each shell's real interpreter: the option's values where it has some,
 * file names after the "=" where it takes a path, never the list of options.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { inShell } from './helpers/in-shell.js';

describe('completion of --option=value', () => {
  it('quotelake answers the values with the option before them, and nothing for a path', async () => {
    const ask = async (...words: string[]) => (await runCli(['--get-yargs-completions', 'quotelake', ...words], { env: { SHELL: '/bin/bash' } })).stdout.split('\n').filter((l) => l !== '');
    const [format, plan, source, output] = await Promise.all([ask('run', '--format='), ask('plan', 'demo', '--plan=pr'), ask('init', '--source=tr'), ask('run', '--output=')]);
    expect(format).toEqual(['--format=parquet', '--format=arrow', '--format=ndjson']);
    expect(plan).toEqual(['--plan=premium', '--plan=professional']);
    expect(source).toEqual(['--source=trade-snapshot', '--source=trading-halts']);
    expect(output).toEqual([]);
  });

  it('bash: the words it split at "=" go back whole, and the answers replace only what follows the "="', () => {
    // As readline splits them (COMP_WORDBREAKS holds "="): `--format=` is three words, `--format=n` four.
    const out = inShell('bash', [
      '-c',
      [
        'source <(quotelake completion bash)',
        'COMP_WORDS=(quotelake run --format =); COMP_CWORD=3; _quotelake_completions; echo "${COMPREPLY[*]}"',
        'COMP_WORDS=(quotelake run demo --format = n); COMP_CWORD=5; _quotelake_completions; echo "${COMPREPLY[*]}"',
        'COMP_WORDS=(quotelake plan --plan = pr); COMP_CWORD=4; _quotelake_completions; echo "${COMPREPLY[*]}"',
        'COMP_WORDS=(quotelake run --output = mi); COMP_CWORD=4; _quotelake_completions; echo "[${COMPREPLY[*]}]"',
      ].join('\n'),
    ]);
    if (out === null) return;
    // An empty answer for a path: `complete -o default` then offers file names after the "=".
    expect(out.split('\n')).toEqual(['parquet arrow ndjson', 'ndjson', 'premium professional', '[]', '']);
  });

  it('zsh: _describe gets the values; a path gets file names after the "="', () => {
    // compinit's functions are stood in for (a widget needs a terminal); everything else is zsh and the script.
    const script = [
      'compdef() { :; }; _describe() { print -rl -- "${(@P)2}"; }; _files() { print FILES; }; compset() { print -r -- "compset $*"; }',
      'source <(quotelake completion zsh)',
      'words=(quotelake run --format=n); CURRENT=3; _quotelake_completions',
      'words=(quotelake run --output=mi); CURRENT=3; _quotelake_completions',
    ].join('\n');
    const out = inShell('zsh', ['-f', '-c', script]);
    if (out === null) return;
    expect(out.split('\n')).toEqual(['--format=ndjson', 'compset -P *=', 'FILES', '']);
  });

  it('fish: the values, and file names after the "=" with the option before them', () => {
    const out = inShell(
      'fish',
      ['-c', ['quotelake completion fish | source', 'complete -C"quotelake run --format="', 'echo sep', 'complete -C"quotelake run --output=mi"'].join('; ')],
      ['mine.yaml'],
    );
    if (out === null) return;
    expect(out.split('\n').map((l) => l.split('\t')[0])).toEqual(['--format=arrow', '--format=ndjson', '--format=parquet', 'sep', '--output=mine.yaml', '']);
  });
});
