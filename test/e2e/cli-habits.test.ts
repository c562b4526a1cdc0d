/**
 * Shell habits through the built CLI: completion scripts and the words they get back, did-you-mean for
 * pipelines and commands, `init` for every source kind (then `validate` on what it wrote), and the
 * refusal of a .ts pipeline on a Node without type stripping.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_SOURCE_TYPES } from '../../src/cli/commands/init.js';
import { MAIN, ROOT, runCli, tempDir } from './helpers/cli.js';
import { inShell } from './helpers/in-shell.js';

/** What a shell gets back for the words typed so far (the last one being completed, '' for none). */
async function complete(words: string[], cwd?: string): Promise<string[]> {
  const r = await runCli(['--get-yargs-completions', 'quotelake', ...words], cwd ? { cwd, env: { SHELL: '/bin/bash' } } : { env: { SHELL: '/bin/bash' } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('quotelake completion', () => {
  it('prints a script for bash, zsh and fish that calls quotelake back; refuses another shell', async () => {
    const [bash, zsh, fish, tcsh, none] = await Promise.all([
      runCli(['completion', 'bash']),
      runCli(['completion', 'zsh']),
      runCli(['completion', 'fish']),
      runCli(['completion', 'tcsh']),
      runCli(['completion']),
    ]);
    for (const r of [bash, zsh, fish]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('quotelake --get-yargs-completions');
      expect(r.stderr).toBe('');
    }
    expect(bash.stdout).toContain('complete -o bashdefault -o default -F _quotelake_completions quotelake');
    expect(zsh.stdout.startsWith('#compdef quotelake\n')).toBe(true);
    expect(fish.stdout).toContain("complete -c quotelake -f -a '(__quotelake_completions)'");
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('Choices: "bash", "zsh", "fish"');
    expect(none.code).toBe(2);
  });

  it('completes pipeline names, commands, options and option values', async () => {
    const [kline, demo, commands, formats, plans, levels, output, shells, sources] = await Promise.all([
      complete(['run', 'kline-b']),
      complete(['plan', '--dry-run', 'demo/']),
      complete(['']),
      complete(['run', 'demo', '--format', '']),
      complete(['run', 'demo', '--plan', 'a']),
      complete(['run', 'demo', '--log-level', 'w']),
      complete(['run', 'demo', '--output', '']),
      complete(['completion', '']),
      complete(['init', 'x', '--source', 'kline-']),
    ]);
    expect(kline).toEqual(['kline-backfill']);
    expect(demo).toEqual(['demo/1-kline-latest', 'demo/2-depth-snapshot', 'demo/3-trade-snapshot', 'demo/4-trading-halts']);
    for (const c of ['run', 'plan', 'validate', 'list', 'init', 'completion']) expect(commands).toContain(c);
    expect(formats).toEqual(['parquet', 'arrow', 'ndjson']);
    expect(plans).toEqual(['all-hk', 'all-cn', 'all-us']);
    expect(levels).toEqual(['warn']);
    // A path: nothing, so the shell falls back to file names.
    expect(output).toEqual([]);
    expect(shells).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
    expect(sources).toEqual(['kline-history', 'kline-latest']);
  });

  it('offers the long options, never a one-letter alias written with two dashes (--q, --y)', async () => {
    const [run, reset] = await Promise.all([complete(['run', 'demo', '--']), complete(['state', 'reset', '--'])]);
    expect(run).toEqual(expect.arrayContaining(['--quiet', '--yes', '--full-refresh']));
    expect(reset).toEqual(expect.arrayContaining(['--yes', '--stream']));
    for (const words of [run, reset]) expect(words.filter((w) => /^--[^-]$/.test(w))).toEqual([]);
  });

  it('local pipelines of the working folder complete by name too', async () => {
    const dir = tempDir('ql-habits-');
    mkdirSync(join(dir, 'pipelines'));
    writeFileSync(join(dir, 'pipelines', 'kline-bonus.yaml'), 'name: kline-bonus\n');
    expect(await complete(['validate', 'kline-b'], dir)).toEqual(['kline-bonus', 'kline-backfill']);
  });

  it('state completes its actions first, and pipeline names only after show or reset', async () => {
    const [bare, show] = await Promise.all([complete(['state', '']), complete(['state', 'show', 'kline-b'])]);
    expect(bare).toEqual(['show', 'reset']);
    expect(show).toEqual(['kline-backfill']);
  });

  it('the bash script, sourced in a real bash, fills COMPREPLY', () => {
    const dir = tempDir('ql-habits-');
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'quotelake'), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
    chmodSync(join(bin, 'quotelake'), 0o755);
    const script = [
      'source <(quotelake completion bash)',
      'COMP_WORDS=(quotelake run kline-b); COMP_CWORD=2; _quotelake_completions; echo "${COMPREPLY[*]}"',
      'COMP_WORDS=(quotelake valid); COMP_CWORD=1; _quotelake_completions; echo "${COMPREPLY[*]}"',
      'COMP_WORDS=(quotelake run demo --format n); COMP_CWORD=4; _quotelake_completions; echo "${COMPREPLY[*]}"',
    ].join('\n');
    let out: string;
    try {
      out = execFileSync('bash', ['-c', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // no bash on this machine: the words are tested above
      throw e;
    }
    expect(out.split('\n')).toEqual(['kline-backfill', 'validate', 'ndjson', '']);
  });

  it('the zsh script, sourced in a real zsh, hands quotelake the words up to the cursor and _describe the answer', () => {
    // compinit's functions are stood in for (a widget needs a terminal): _describe prints the
    // array it is given, _files says it was called. Everything else is zsh and the script.
    const script = [
      'compdef() { :; }; _describe() { print -rl -- "${(@P)2}"; }; _files() { print FILES; }',
      'source <(quotelake completion zsh)',
      'words=(quotelake run kline-b); CURRENT=3; _quotelake_completions',
      'words=(quotelake run demo --format "" --log-level); CURRENT=5; _quotelake_completions',
      'words=(quotelake run demo --output ""); CURRENT=5; _quotelake_completions',
      'words=(quotelake valid); CURRENT=2; _quotelake_completions',
    ].join('\n');
    const out = inShell('zsh', ['-f', '-c', script]);
    if (out === null) return;
    const lines = out.split('\n');
    // Words after the cursor are not sent; a path gets file names; zsh filters commands by prefix itself.
    expect(lines.slice(0, 5)).toEqual(['kline-backfill', 'parquet', 'arrow', 'ndjson', 'FILES']);
    expect(lines).toContain('validate:Check pipeline files without running them (every problem with file:line:column)');
    // With zsh's own compinit (no dump file written), sourcing the script registers the function.
    const registered = inShell('zsh', ['-f', '-c', 'autoload -U compinit; compinit -u -D; source <(quotelake completion zsh); print -r -- ${_comps[quotelake]}']);
    expect(registered).toBe('_quotelake_completions\n');
  });

  it('the fish script, sourced in a real fish, completes what the command line holds', () => {
    const out = inShell('fish', [
      '-c',
      ['quotelake completion fish | source', 'complete -C"quotelake run kline-b"', 'complete -C"quotelake valid"', 'complete -C"quotelake run demo --format "', 'complete -C"quotelake run demo --log-level w"'].join('; '),
    ]);
    if (out === null) return;
    expect(out.split('\n').map((l) => l.split('\t')[0])).toEqual(['kline-backfill', 'validate', 'arrow', 'ndjson', 'parquet', 'warn', '']); // fish sorts them
  });

  it('the fish script offers file names only where no word fits, as bash and zsh do', () => {
    const out = inShell('fish', ['-c', ['quotelake completion fish | source', 'complete -C"quotelake run demo --log-level "', 'echo sep', 'complete -C"quotelake run demo --output "'].join('; ')], ['mine.yaml']);
    if (out === null) return;
    expect(out.split('\n').map((l) => l.split('\t')[0])).toEqual(['debug', 'error', 'info', 'warn', 'sep', 'mine.yaml', '']);
  });
});

describe('did you mean', () => {
  it('a mistyped pipeline name or path: exit 2 with the nearest one', async () => {
    const [name, path, far] = await Promise.all([runCli(['run', 'kline-backfil']), runCli(['validate', 'pipelines/kline-backfil.yaml']), runCli(['run', 'zzz'])]);
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/^quotelake: no pipeline named kline-backfil; did you mean kline-backfill\?$/m);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('quotelake: no pipeline file pipelines/kline-backfil.yaml; did you mean pipelines/kline-backfill.yaml?');
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('quotelake: pipeline "zzz" not found');
    expect(far.stderr).not.toContain('did you mean');
  });

  it('an unknown command is named beside the suggestion; a misspelt flag; an unknown key in a file, at its line', async () => {
    const dir = tempDir('ql-habits-');
    writeFileSync(join(dir, 'p.yaml'), 'name: p\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  sinc: 7d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const [command, key, option, stray] = await Promise.all([
      runCli(['valdate', 'x']),
      runCli(['validate', 'p.yaml'], { cwd: dir }),
      runCli(['run', 'demo', '--fromat', 'ndjson']),
      runCli(['list', 'fromat']),
    ]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^quotelake: Unknown argument: fromat; did you mean --format\?$/m);
    // A stray word is not taken for a misspelt flag.
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/^quotelake: Unknown argument: fromat$/m);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^quotelake: unknown command "valdate"; did you mean validate\?$/m);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('quotelake: p.yaml:6:3: source: unknown key "sinc"; did you mean "since"?');
  });
});

describe('quotelake init', () => {
  it('writes a pipeline for every source kind that validate passes', async () => {
    const dir = tempDir('ql-habits-');
    const inits = await Promise.all(INIT_SOURCE_TYPES.map((s) => runCli(['init', '--source', s], { cwd: dir })));
    inits.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`quotelake: wrote pipelines/${INIT_SOURCE_TYPES[i]}.yaml (pipeline ${INIT_SOURCE_TYPES[i]}: source ${INIT_SOURCE_TYPES[i]}, sink parquet)`);
    });
    const validate = await runCli(['validate', ...INIT_SOURCE_TYPES, '--json'], { cwd: dir });
    expect(validate.code, validate.stdout).toBe(0);
    const doc = JSON.parse(validate.stdout) as { valid: boolean; pipelines: { name: string; valid: boolean }[] };
    expect(doc.pipelines.map((p) => [p.name, p.valid])).toEqual(INIT_SOURCE_TYPES.map((s) => [s, true]));
    // The editor directive points at the package's schema file: absolute here (the package is outside the project).
    const first = readFileSync(join(dir, 'pipelines', 'kline-history.yaml'), 'utf8').split('\n')[0]!;
    expect(first).toBe(`# yaml-language-server: $schema=${join(ROOT, 'pipeline.schema.json')}`);
    // Inside the project (as under node_modules/quotelake), relative to the written file.
    const elsewhere = tempDir('ql-habits-');
    const local = await runCli(['init', 'here', '--dir', elsewhere], { cwd: ROOT });
    expect(local.code, local.stderr).toBe(0);
    const directive = readFileSync(join(elsewhere, 'here.yaml'), 'utf8').split('\n')[0]!.replace('# yaml-language-server: $schema=', '');
    expect(directive.startsWith('../')).toBe(true);
    expect(resolve(elsewhere, directive)).toBe(join(ROOT, 'pipeline.schema.json'));
  });

  it('the next-steps line quotes a folder with a blank or a quote, so it pastes into a shell as it reads', async () => {
    const dir = tempDir('ql-habits-');
    const [blank, quote] = await Promise.all([runCli(['init', 'a', '--dir', 'sp ace'], { cwd: dir }), runCli(['init', 'b', '--dir', "it's"], { cwd: dir })]);
    expect(blank.stderr).toContain("next: quotelake validate 'sp ace/a.yaml' && quotelake plan 'sp ace/a.yaml' && quotelake run 'sp ace/a.yaml'");
    expect(quote.stderr).toContain("next: quotelake validate 'it'\\''s/b.yaml' &&");
    const pasted = execFileSync('bash', ['-c', `printf '%s\\n' 'it'\\''s/b.yaml'`], { encoding: 'utf8' });
    expect(pasted).toBe("it's/b.yaml\n");
  });

  it('never overwrites without --force; --dir and --sink; a name that could leave the folder is refused', async () => {
    const dir = tempDir('ql-habits-');
    const first = await runCli(['init', 'mine', '--source', 'trading-halts', '--sink', 'arrow', '--dir', 'elsewhere'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const file = join(dir, 'elsewhere', 'mine.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# my edit\n`);
    const again = await runCli(['init', 'mine', '--dir', 'elsewhere'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('quotelake: elsewhere/mine.yaml exists; init never overwrites a pipeline file');
    expect(again.stderr).toContain('hint: pass --force to replace it');
    expect(readFileSync(file, 'utf8')).toContain('# my edit');
    const forced = await runCli(['init', 'mine', '--dir', 'elsewhere', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain('# my edit');
    expect(readFileSync(file, 'utf8')).toContain('  type: kline-history');

    const [evil, upper, typo] = await Promise.all([
      runCli(['init', '../evil'], { cwd: join(dir, 'elsewhere') }),
      runCli(['init', 'My Klines'], { cwd: dir }),
      runCli(['init', 'x', '--source', 'kline-histry'], { cwd: dir }),
    ]);
    expect(evil.code).toBe(2);
    expect(evil.stderr).toContain('quotelake: pipeline name "../evil" must match [a-z0-9-]+');
    expect(existsSync(join(dir, 'evil.yaml')) || existsSync(join(dir, 'elsewhere', 'evil.yaml'))).toBe(false);
    expect(upper.code).toBe(2);
    expect(upper.stderr).toContain('hint: try "quotelake init my-klines"');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('quotelake: unknown source "kline-histry"; did you mean kline-history?');
  });
});

describe('TypeScript pipelines on this Node', () => {
  it.skipIf((process.features as { typescript?: unknown }).typescript)('are refused with the exact alternatives, exit 2', async () => {
    const dir = tempDir('ql-habits-');
    writeFileSync(join(dir, 'my.ts'), "export default { name: 'my' } as const;\n");
    const [validate, run] = await Promise.all([runCli(['validate', 'my.ts'], { cwd: dir }), runCli(['run', 'my.ts'], { cwd: dir })]);
    for (const r of [validate, run]) {
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `quotelake: my.ts: Node ${process.version} cannot load a TypeScript pipeline (it has no type stripping): run on Node 22.18 or later (or 23.6+), or compile it first (npx tsc --module esnext --moduleResolution bundler --target es2022 my.ts) and pass my.js, or write it as .yaml`,
      );
    }
    // The package's loadPipeline says the same to a library caller, not Node's "Unknown file extension".
    const load = `import { loadPipeline, components } from ${JSON.stringify(join(ROOT, 'dist/index.js'))}; await loadPipeline('my.ts', components).catch((e) => console.log(e.code, e.message));`;
    const said = execFileSync(process.execPath, ['--input-type=module', '-e', load], { cwd: dir, encoding: 'utf8' });
    expect(said).toContain(`QL_CONFIG my.ts: Node ${process.version} cannot load a TypeScript pipeline (it has no type stripping)`);
  });
});
