/** --help, --version, and every way a command line or a pipeline file can be wrong: exit 2 with what to fix. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { quickRetry } from './helpers/quick-retry.js';

const COMMANDS = ['run', 'plan', 'validate', 'list', 'inspect', 'migrate', 'compact', 'vacuum', 'repair', 'quota', 'enqueue', 'worker', 'queue', 'state', 'schema', 'serve', 'init', 'completion'];
const FIXTURES = join(ROOT, 'test/fixtures/pipelines');

describe('help and version', () => {
  it('prints help for the CLI and every command, with examples', async () => {
    const results = await Promise.all([runCli(['--help']), ...COMMANDS.map((c) => runCli([c, '--help']))]);
    const [top, ...perCommand] = results;
    expect(top!.code).toBe(0);
    for (const c of COMMANDS) expect(top!.stdout).toContain(`quotelake ${c}`);
    expect(top!.stdout).toContain('Exit codes: 0 done, 1 failed, 2 usage or pipeline error, 3 rejected records');
    perCommand.forEach((r, i) => {
      expect(r.code, COMMANDS[i]).toBe(0);
      expect(r.stdout, COMMANDS[i]).toContain(`quotelake ${COMMANDS[i]}`);
      expect(r.stdout, COMMANDS[i]).toContain('Examples:');
    });
    const run = perCommand[0]!.stdout;
    for (const flag of ['--base-url', '--token', '--plan', '--output', '--state-dir', '--format', '--since', '--until', '--codes', '--state', '--dry-run', '--json', '--quiet', '--log-level', '--log-format']) {
      expect(run).toContain(flag);
    }
    expect(run).toContain('command-line flag > environment variable');
    const help = (c: string) => perCommand[COMMANDS.indexOf(c)]!.stdout;
    // A required positional has no default to show.
    for (const c of ['run', 'plan', 'validate']) expect(help(c), c).not.toContain('[default: []]');
    // --clock is under "Data (override the pipeline file)" only beside the data options it moves.
    const dataGroup = (text: string) => /^Data \(override the pipeline file\):\n((?: .*\n)*)/m.exec(text)?.[1] ?? '';
    for (const c of ['run', 'plan', 'enqueue']) expect(dataGroup(help(c)), c).toContain('--clock');
    for (const c of ['worker', 'queue', 'quota']) {
      expect(help(c), c).toContain('--clock');
      expect(help(c), c).not.toContain('Data (override the pipeline file)');
    }
    // enqueue never hands an NDJSON sink to its workers: --format does not offer it.
    expect(help('enqueue')).toContain('[choices: "parquet", "arrow"]');
  });

  it('prints the version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('0.1.0');
  });
});

describe('usage errors exit 2 with a hint', () => {
  it('rejects unknown flags, missing arguments and unknown pipelines', async () => {
    const [flag, missing, unknown, noCommand] = await Promise.all([
      runCli(['run', 'demo', '--bogus']),
      runCli(['run']),
      runCli(['run', 'no-such-pipeline']),
      runCli([]),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^quotelake: Unknown argument: bogus/m);
    // An option of other commands, given to one that lacks it: named once, as typed.
    const [elsewhere, negated] = await Promise.all([runCli(['list', '--base-url', 'http://127.0.0.1:9']), runCli(['plan', 'demo', '--no-state'])]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/^quotelake: Unknown argument: base-url\n  hint: run "quotelake list --help" for usage$/m);
    expect(negated.code).toBe(2);
    expect(negated.stderr).toMatch(/^quotelake: Unknown argument: no-state$/m);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('quotelake: name a pipeline to run: quotelake run <pipeline...> ("quotelake list" shows those you can name; a .yaml or .ts path works too)');
    expect(missing.stderr).toContain('hint: run "quotelake run --help" for usage');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('quotelake: pipeline "no-such-pipeline" not found');
    expect(unknown.stderr).toContain('hint: run "quotelake list"');
    expect(noCommand.code).toBe(2);
    for (const r of [flag, missing, unknown, noCommand]) expect(r.stdout).toBe('');
  });

  it('points at file:line:column of a bad pipeline file (run, validate, plan)', async () => {
    const bad = join(FIXTURES, 'bad-interval.yaml');
    const [run, validate, plan, yamlError] = await Promise.all([
      runCli(['run', bad]),
      runCli(['validate', bad, join(FIXTURES, 'tiny-trades.yaml')]),
      runCli(['plan', bad]),
      runCli(['validate', join(FIXTURES, 'bad-yaml.yaml')]),
    ]);
    for (const r of [run, validate, plan]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/bad-interval\.yaml:6:15: /);
      expect(r.stderr).toContain('hint: fix the pipeline file');
    }
    expect(validate.stderr).toMatch(/tiny-trades\.yaml: valid/);
    expect(yamlError.code).toBe(2);
    expect(yamlError.stderr).toMatch(/bad-yaml\.yaml:\d+:\d+: YAML syntax error/);
  });

  it("validate masks the environment's token too: a pipeline module that throws it is printed redacted", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ql-usage-')), 'throws.mjs');
    writeFileSync(file, "throw new Error('boom ' + process.env.QUOTELAKE_TOKEN);\n");
    const [text, json] = await Promise.all([
      runCli(['validate', file], { env: { QUOTELAKE_TOKEN: 'sk-live-abcdefghijkl' } }),
      runCli(['validate', file, '--json'], { env: { QUOTELAKE_TOKEN: 'sk-live-abcdefghijkl' } }),
    ]);
    for (const r of [text, json]) {
      expect(r.code).toBe(2);
      expect(r.stderr + r.stdout).toContain('cannot load pipeline module: boom sk-l…');
      expect(r.stderr + r.stdout).not.toContain('sk-live-abcdefghijkl');
    }
  });

  it('a JS pipeline with a syntax error: file:line:column as for YAML, exit 2', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ql-usage-')), 'broken.mjs');
    writeFileSync(file, "export default {\n  name: 'p',\n  source: { type: 'kline-history', codes: [BTC },\n};\n");
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:3:48: cannot load pipeline module: Unexpected token '}'`);
  });

  it('a JS pipeline whose top level awaits forever: exit 1 with a message, never a silent 0 with nothing run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ql-usage-')), 'stuck.mjs');
    writeFileSync(file, 'await new Promise(() => {});\nexport default {};\n');
    for (const command of ['validate', 'run']) {
      const r = await runCli([command, file]);
      expect(r.code, command).toBe(1);
      expect(r.stderr).toContain('quotelake: the command stopped before it finished: it was waiting for something that can no longer happen');
    }
  });

  it('refuses stages that do not fit, at the stage, with the stage to add, before any request (run, validate, plan)', async () => {
    const bad = join(FIXTURES, 'raw-klines-parquet.yaml');
    const out = mkdtempSync(join(tmpdir(), 'ql-kinds-'));
    // A dead service: a request would fail with exit 1, so exit 2 shows the check came first.
    const service = ['--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl', '--plan', 'free'];
    const [run, validate, plan, format] = await Promise.all([
      runCli(['run', bad, ...service, '--output', join(out, 'lake')]),
      runCli(['validate', bad]),
      runCli(['plan', bad]),
      runCli(['run', join(FIXTURES, 'raw-trades-ndjson.yaml'), '--format', 'parquet', ...service, '--output', join(out, 'lake')]),
    ]);
    const message =
      'raw-klines-parquet.yaml:9:3: sink: parquet takes parsed K-lines but source kline-history emits raw K-lines: add "- type: parse-decimals" to transforms before the sink';
    for (const r of [run, validate, plan]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('hint: fix the pipeline file');
      expect(r.stderr).not.toContain('looks like a bug');
    }
    expect(format.code).toBe(2);
    expect(format.stderr).toContain(
      'raw-trades-ndjson.yaml with --format: sink: parquet takes parsed trades but source trade-snapshot emits raw trades: add "- type: parse-decimals" to transforms before the sink',
    );
    expect(readdirSync(out)).toEqual([]);
  });

  it('validate --json lists problems per file', async () => {
    const r = await runCli(['validate', '--json', join(FIXTURES, 'bad-interval.yaml'), join(FIXTURES, 'tiny-trades.yaml')]);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { valid: boolean; pipelines: { valid: boolean; problems: string[] }[] };
    expect(doc.valid).toBe(false);
    expect(doc.pipelines.map((p) => p.valid)).toEqual([false, true]);
    expect(doc.pipelines[0]!.problems[0]).toMatch(/bad-interval\.yaml:6:15: /);
  });

  it('--token that is empty or blank ("$TOKEN" unset) is a usage error; one pasted with blanks around is trimmed', async () => {
    const tiny = join(FIXTURES, 'tiny-trades.yaml');
    const [empty, blank, padded] = await Promise.all([
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--token', '']),
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--token=  ']),
      // Padded, it is the token: the message below names the missing plan, and never the token.
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--token', ' sk-live-abcdefghijkl\n']),
    ]);
    for (const r of [empty, blank]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('quotelake: --token is empty\n  hint: give the token of your plan');
    }
    expect(padded.code).toBe(2);
    expect(padded.stderr).toContain('plan is not set');
    expect(padded.stderr).not.toContain('sk-live-abcdefghijkl');
  });

  it('a token starting with "-" after --token is refused without being echoed (yargs would read it as options); --token=VALUE takes it', async () => {
    const tiny = join(FIXTURES, 'tiny-trades.yaml');
    const [double, single, inline] = await Promise.all([
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--plan', 'free', '--token', '--secret-dash-token']),
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--plan', 'free', '--token', '-Secretdashtoken', '--json']),
      // Retries a few ms apart: the dead address is met as often, without seconds of backoff.
      runCli(['run', quickRetry(tiny), '--base-url', 'http://127.0.0.1:9', '--plan', 'free', '--token=--secret-dash-token', '--output', tempDir()]),
    ]);
    for (const r of [double, single]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('quotelake: --token is followed by a word starting with "-"');
      expect(r.stderr + r.stdout).not.toMatch(/secret|Secret|S, e, c/);
    }
    // The inline form is the token: the run goes as far as the dead address.
    expect(inline.stderr).toContain('nothing accepts connections at 127.0.0.1:9');
    expect(inline.stderr + inline.stdout).not.toContain('secret-dash-token');
  });

  it('state and quota: an --output that is a file is exit 2; one that does not exist is named as such', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const missing = join(dir, 'missing');
    const [show, reset, quota, showMissing, quotaMissing] = await Promise.all([
      runCli(['state', 'show', '--output', file]),
      runCli(['state', 'reset', '--output', file, '--yes']),
      runCli(['quota', '--output', file]),
      runCli(['state', 'show', '--output', missing]),
      runCli(['quota', '--output', missing]),
    ]);
    for (const r of [show, reset, quota]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`quotelake: --output ${file} is a file, not an output folder`);
    }
    expect([showMissing.code, quotaMissing.code]).toEqual([0, 0]);
    expect(showMissing.stdout).toContain(`${missing} does not exist (no run has written there; check --output)`);
    expect(quotaMissing.stdout).toContain(`${missing} does not exist: check --output`);
  });

  it('needs a token with a base URL, a base URL with a token, and a plan for a real service', async () => {
    const tiny = join(FIXTURES, 'tiny-trades.yaml');
    const [urlOnly, tokenOnly, envToken, noPlan, badPlan] = await Promise.all([
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9']),
      runCli(['run', tiny, '--token', 'sk-live-abcdefghijkl']),
      runCli(['run', tiny], { env: { QUOTELAKE_TOKEN: 'sk-live-abcdefghijkl' } }),
      runCli(['run', tiny, '--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl']),
      runCli(['run', tiny, '--plan', 'gold']),
    ]);
    expect(urlOnly.code).toBe(2);
    expect(urlOnly.stderr).toContain('a base URL is set (flag: http://127.0.0.1:9) but no token');
    expect(urlOnly.stderr).toContain('hint: set QUOTELAKE_TOKEN');
    for (const r of [tokenOnly, envToken]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('a token is set but no base URL');
    }
    expect(noPlan.code).toBe(2);
    expect(noPlan.stderr).toContain('plan is not set');
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toMatch(/Invalid values|not one of/);
    for (const r of [tokenOnly, envToken, noPlan]) expect(r.stderr + r.stdout).not.toContain('sk-live-abcdefghijkl');
  });

  it('rejects overrides that do not fit the pipeline', async () => {
    const tiny = join(FIXTURES, 'tiny-trades.yaml');
    const [since, badCode, badFormat, typoFormat, typoShell] = await Promise.all([
      runCli(['run', tiny, '--since', '7d']),
      runCli(['plan', 'kline-backfill', '--codes', 'btcusdt']),
      runCli(['run', tiny, '--format', 'csv']),
      runCli(['run', tiny, '--format', 'parqet']),
      runCli(['completion', 'bsh']),
    ]);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since does not apply to this pipeline: its source "trade-snapshot" has no "since"');
    expect(badCode.code).toBe(2);
    expect(badCode.stderr).toContain('unknown product code "btcusdt"; did you mean "BTCUSDT"?');
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('Invalid values');
    expect(badFormat.stderr).not.toContain('did you mean');
    // A misspelt value gets the nearest choice, as a misspelt option does.
    expect(typoFormat.code).toBe(2);
    expect(typoFormat.stderr).toContain('Argument: format, Given: "parqet", Choices: "parquet", "arrow", "ndjson"; did you mean "parquet"?');
    expect(typoShell.code).toBe(2);
    expect(typoShell.stderr).toContain('Argument: shell, Given: "bsh", Choices: "bash", "zsh", "fish"; did you mean "bash"?');
  });

  it('the same pipeline twice in one command (by name and by path) is a usage error before anything runs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ql-twice-'));
    const r = await runCli(['run', 'kline-backfill', join(ROOT, 'pipelines/kline-backfill.yaml'), '--codes', 'BTCUSDT', '--since', '1h', '--output', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: pipeline pipelines/kline-backfill.yaml is given twice (as kline-backfill and as ${join(ROOT, 'pipelines/kline-backfill.yaml')}): each pipeline runs once per command`);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a lone "-" (standard input elsewhere) is a usage error, never a command run on nothing that exits 0', async () => {
    const results = await Promise.all([['validate', '-'], ['run', '-'], ['plan', 'demo', '-'], ['inspect', '-'], ['init', '-']].map((args) => runCli(args)));
    for (const r of results) {
      expect([r.code, r.stderr.split('\n')[0], r.stdout]).toEqual([2, 'quotelake: "-" is not a pipeline, file or folder: quotelake reads nothing from standard input', '']);
    }
  });

  it('an option of one value given twice is a usage error naming both, never an internal error; a token is not shown', async () => {
    const results = await Promise.all([
      runCli(['run', 'demo', '--output', 'a', '--output', 'b']),
      runCli(['plan', 'kline-backfill', '--codes', 'BTCUSDT', '--codes', 'ETHUSDT']),
      runCli(['inspect', 'output', '--runs', '1', '--runs', '2']),
      runCli(['run', 'demo', '--token', 'first-secret-token', '--token', 'second-secret-token', '--base-url', 'http://127.0.0.1:9']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --output was given 2 times ("a", "b"): it takes one value'],
      [2, 'quotelake: --codes was given 2 times ("BTCUSDT", "ETHUSDT"): it takes one value'],
      [2, 'quotelake: --runs was given 2 times (1, 2): it takes one value'],
      [2, 'quotelake: --token was given 2 times: it takes one value'],
    ]);
    expect(results[3]!.stderr).not.toMatch(/first-secret|second-secret/);
  });

  it('text given to a number option is named as given, not as NaN, for every command', async () => {
    const results = await Promise.all([
      runCli(['serve', '--port', 'abc']),
      runCli(['worker', '--concurrency=four']),
      runCli(['compact', '--output', 'o', '--grace', '5m']),
      runCli(['run', 'demo', '--stop-timeout', '30s']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --port must be a number, got "abc"'],
      [2, 'quotelake: --concurrency must be a number, got "four"'],
      [2, 'quotelake: --grace must be a number, got "5m"'],
      [2, 'quotelake: --stop-timeout must be a number, got "30s"'],
    ]);
    expect(results[0]!.stderr).toContain('hint: run "quotelake serve --help" for what it takes');
  });

  it('a missing argument or a choice without its value is said as what to type, with the command\'s own help', async () => {
    const [queue, shell, format] = await Promise.all([runCli(['queue']), runCli(['completion']), runCli(['run', 'demo', '--format'])]);
    expect([queue, shell, format].map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: name what to do: quotelake queue status, schedules, unschedule <name>, or drop <pipeline>'],
      [2, 'quotelake: name a shell: quotelake completion bash, zsh or fish'],
      [2, 'quotelake: --format needs a value: parquet, arrow or ndjson'],
    ]);
    expect(format.stderr).toContain('hint: run "quotelake run --help" for usage');
  });

  it('a number option with nothing after it is a usage error, not the default taken in silence', async () => {
    const results = await Promise.all([
      runCli(['run', 'demo', '--dry-run', '--stop-timeout']),
      runCli(['serve', '--port', '--seed', '1']),
      runCli(['run', 'demo', '--dry-run', '--stop-timeout', '-1']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --stop-timeout must be a number, got no value'],
      [2, 'quotelake: --port must be a number, got no value'],
      // A negative number is a value (refused by the option's own rule).
      [2, expect.not.stringContaining('got no value')],
    ]);
  });

  it('an option with a default given no value is refused, not quietly read as its default', async () => {
    const dir = tempDir();
    const results = await Promise.all([
      runCli(['run', 'demo', '--dry-run', '--log-level']),
      runCli(['run', 'demo', '--dry-run', '--log-level', '--quiet']),
      runCli(['compact', '--log-level'], { cwd: dir }),
      runCli(['migrate', '--output', '--dry-run'], { cwd: dir }),
      runCli(['init', '--dir', dir, '--source']),
      // compact's --output has no default of its own (a pipeline argument may name the output), as run's has none.
      runCli(['compact', '--output'], { cwd: dir }),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --log-level needs a value: debug, info, warn or error (leave the option out for its default, "warn")'],
      [2, 'quotelake: --log-level needs a value: debug, info, warn or error (leave the option out for its default, "warn")'],
      [2, 'quotelake: --log-level needs a value: debug, info, warn or error (leave the option out for its default, "warn")'],
      [2, 'quotelake: --output needs a value (leave the option out for its default, "output")'],
      [2, 'quotelake: --source needs a value (leave the option out for its default, "kline-history")'],
      [2, 'quotelake: the output (--output, or the argument of inspect) is empty: name a folder or an s3://bucket/prefix'],
    ]);
    expect(results[2]!.stderr).toContain('hint: run "quotelake compact --help" for what it takes');
    // Nothing was written in the default's place.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an empty number option (an unset shell variable) is refused by name, not read as 0', async () => {
    const results = await Promise.all([
      runCli(['run', 'demo', '--dry-run', '--stop-timeout', '']),
      runCli(['run', 'demo', '--dry-run', '--stop-timeout=']),
      runCli(['worker', '--concurrency', ' ']),
      runCli(['compact', '--output', 'o', '--grace', '']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --stop-timeout must be a number, got ""'],
      [2, 'quotelake: --stop-timeout must be a number, got ""'],
      [2, 'quotelake: --concurrency must be a number, got " "'],
      [2, 'quotelake: --grace must be a number, got ""'],
    ]);
    expect(results[0]!.stderr).toContain('hint: run "quotelake run --help" for what it takes');
  });

  it('an empty --output or --state-dir (an unset shell variable) is a usage error for every command that takes one', async () => {
    const results = await Promise.all([
      runCli(['run', 'demo', '--output', '']),
      runCli(['inspect', '']),
      runCli(['compact', '--output', ' ']),
      runCli(['run', 'demo', '--state-dir', '']),
    ]);
    for (const r of results.slice(0, 3)) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('the output (--output, or the argument of inspect) is empty: name a folder or an s3://bucket/prefix');
    }
    expect(results[3]!.code).toBe(2);
    expect(results[3]!.stderr).toContain('--state-dir is empty: name a folder');
    for (const r of results) expect(r.stderr).not.toContain('looks like a bug');
  });

  it('an empty --plans-file or --tokens-file (an unset shell variable) is a usage error for every command that takes one', async () => {
    // The pool's file fell back in silence to QUOTELAKE_TOKENS or the single token; the plans file was "cannot read ... open ''".
    const cases: [string[], string][] = [
      [['serve', '--plans-file', ''], '--plans-file is empty: name a plans file (YAML or JSON)'],
      [['quota', '--plans-file', ''], '--plans-file is empty: name a plans file (YAML or JSON)'],
      [['run', 'demo', '--plans-file', ' '], '--plans-file is empty: name a plans file (YAML or JSON)'],
      [['plan', 'demo', '--tokens-file', ''], '--tokens-file is empty: name the secrets file of the token pool'],
      [['quota', '--tokens-file', ''], '--tokens-file is empty: name the secrets file of the token pool'],
      [['worker', '--tokens-file', ''], '--tokens-file is empty: name the secrets file of the token pool'],
      [['queue', 'status', '--plans-file', ''], '--plans-file is empty: name a plans file (YAML or JSON)'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0], r.stdout])).toEqual(cases.map(([, message]) => [2, `quotelake: ${message}`, '']));
  });

  it('a tokens-file or QUOTELAKE_TOKENS entry of the wrong shape says what it is and how to write it, never quoting the token', async () => {
    const secret = 'secretsecret2';
    const dir = tempDir('ql-tokens-');
    const file = (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text, { mode: 0o600 });
      return path;
    };
    // "- token secretsecret2" (the colon left out) is a string in YAML, not a {token, plan} mapping.
    const noColon = file('no-colon.yaml', `tokens:\n  - token: secretsecret1\n    plan: professional\n  - token ${secret}\n`);
    const noPlan = file('no-plan.yaml', `tokens:\n  - token: ${secret}\n`);
    const numeric = file('numeric.yaml', `tokens:\n  - token: 12345678\n    plan: professional\n`);
    const results = await Promise.all([
      runCli(['plan', 'demo', '--tokens-file', noColon]),
      runCli(['plan', 'demo', '--tokens-file', noPlan]),
      runCli(['plan', 'demo', '--tokens-file', numeric]),
      runCli(['plan', 'demo'], { env: { QUOTELAKE_TOKENS: `["${secret}"]` } }),
    ]);
    const yamlHint = '  hint: write each entry as "- token: …" with "plan: …" under it (a colon and a blank after each key; quote a token of digits)';
    expect(results.map((r) => [r.code, ...r.stderr.split('\n').slice(0, 2), r.stdout])).toEqual([
      [2, `quotelake: tokens file ${noColon}: entry 2 of 2 is a string, not a {token, plan} mapping`, yamlHint, ''],
      [2, `quotelake: tokens file ${noPlan}: entry 1 of 1: "plan" is missing`, yamlHint, ''],
      [2, `quotelake: tokens file ${numeric}: entry 1 of 1: "token" is a number, not a string`, yamlHint, ''],
      [2, 'quotelake: QUOTELAKE_TOKENS: entry 1 of 1 is a string, not a {token, plan} mapping', expect.stringContaining('a JSON list [{"token":"…","plan":"…"}]'), ''],
    ]);
    for (const r of results) expect(r.stderr).not.toContain(secret);
  });

  it('QUOTELAKE_TOKENS with an empty entry (an unset variable in "$A,$B,$C") is refused, never a smaller pool run in silence', async () => {
    const results = await Promise.all(
      ['tA:professional,,tB:premium', 'tA:professional,tB:premium,', ',tA:professional', 'tA:professional, ,tB:premium'].map((pool) => runCli(['plan', 'demo'], { env: { QUOTELAKE_TOKENS: pool } })),
    );
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0], r.stdout])).toEqual([
      [2, 'quotelake: QUOTELAKE_TOKENS: entry 2 of 3 is empty (nothing between two commas, or a comma at an end: an unset variable?)', ''],
      [2, 'quotelake: QUOTELAKE_TOKENS: entry 3 of 3 is empty (nothing between two commas, or a comma at an end: an unset variable?)', ''],
      [2, 'quotelake: QUOTELAKE_TOKENS: entry 1 of 2 is empty (nothing between two commas, or a comma at an end: an unset variable?)', ''],
      [2, 'quotelake: QUOTELAKE_TOKENS: entry 2 of 3 is empty (nothing between two commas, or a comma at an end: an unset variable?)', ''],
    ]);
    // Line breaks separate entries too: a comma ending a line and blank lines are layout, not entries.
    const lines = await runCli(['plan', 'demo'], { env: { QUOTELAKE_TOKENS: 'tA:professional,\n\ntB:premium\n' } });
    expect([lines.code, lines.stdout]).toEqual([0, expect.stringContaining('plan pool of 2')]);
  });

  it('inspect of a file (a pipeline given for the output) says it is a file, before reading anything from it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ql-inspect-file-')), 'daily.yaml');
    writeFileSync(file, 'name: daily\n');
    const r = await runCli(['inspect', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`quotelake: ${file} is a file, not an output folder\n  hint: give the output folder of a run, e.g. "quotelake inspect output"\n`);
  });

  it('an output written as a URL that is not s3:// is refused, on the command line and in a pipeline file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ql-gs-')), 'gs.yaml');
    writeFileSync(file, 'name: gs\nsource:\n  type: kline-latest\n  codes: [BTCUSDT]\n  intervals: [1m]\nsink:\n  type: parquet\n  output: gs://bucket/lake\n');
    const cases: [string[], string | RegExp][] = [
      [['plan', 'demo', '--output', 'gs://bucket/lake'], 'the output "gs://bucket/lake" is neither a folder nor s3://bucket/prefix'],
      [['run', 'demo', '--output', 'S3://bucket/lake'], 'the output "S3://bucket/lake" has its scheme in capitals: write s3://'],
      [['inspect', 'https://host/lake'], 'the output "https://host/lake" is neither a folder nor s3://bucket/prefix'],
      [['run', 'demo', '--state-dir', 'gs://bucket/state'], 'the state dir "gs://bucket/state" is neither a folder nor s3://bucket/prefix'],
      [['validate', file], /gs\.yaml:8:\d+: sink\.output: "gs:\/\/bucket\/lake" is neither a folder nor s3:\/\/bucket\/prefix/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    results.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
  });

  it('an output of s3: short of a slash is refused, not written to a local folder named "s3:" with exit 0', async () => {
    const cwd = tempDir('ql-s3-slash-');
    const r = await runCli(['run', 'demo', '--output', 's3:/bucket/lake'], { cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the output "s3:/bucket/lake" is not an S3 URL (one or both slashes after s3: are missing): write s3://bucket/prefix');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an s3:// output with a blank before or after it is refused, not written to a folder " s3:" or a prefix "lake "', async () => {
    const cwd = tempDir('ql-s3-blank-');
    const [before, after] = await Promise.all([runCli(['run', 'demo', '--output', ' s3://bucket/lake'], { cwd }), runCli(['run', 'demo', '--output', 's3://bucket/lake '], { cwd })]);
    expect(before.code, before.stderr).toBe(2);
    expect(before.stderr).toContain('the output " s3://bucket/lake" has blanks around it: write the URL without them');
    expect(after.code, after.stderr).toBe(2);
    expect(after.stderr).toContain('the output "s3://bucket/lake " has blanks around it: write the URL without them');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an output s3://bucket//lake (a slash doubled) is refused as an empty segment, not as "absolute"', async () => {
    const r = await runCli(['run', 'demo', '--output', 's3://bucket//lake']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('quotelake: s3://bucket//lake: the prefix has an empty segment (// or a leading or trailing /)');
  });

  it('an --until or --since on a day that does not exist is a usage error, not another day nor a bug report', async () => {
    const [month13, april31] = await Promise.all([runCli(['run', 'demo', '--until', '2026-13-01']), runCli(['plan', 'kline-backfill', '--since', '2026-04-31'])]);
    expect(month13.code, month13.stderr).toBe(2);
    expect(month13.stderr).toContain('source.until: "2026-13-01" must be an ISO date or date-time that exists');
    expect(month13.stderr).not.toContain('looks like a bug');
    expect(april31.code, april31.stderr).toBe(2);
    expect(april31.stderr).toContain('source.since: "2026-04-31" must be an ISO date or date-time that exists');
  });
});
