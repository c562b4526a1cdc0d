/**
 * Pipeline files that once passed validate and then crashed (or crashed validate itself) with the
 * "looks like a bug" hint: each is now a problem at its file:line:column, exit 2, through the built CLI.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

const FIXTURES = join(ROOT, 'test/fixtures/pipelines');

// A dead service: a request would fail with exit 1, so exit 2 shows the check came first.
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl', '--plan', 'free'];

const TRADES = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

/** `text` written as `<name>` in a fresh folder; its path. */
function pipelineFile(name: string, text: string): string {
  const file = join(tempDir('ql-checks-'), name);
  writeFileSync(file, text);
  return file;
}

describe('YAML aliases and merge keys', () => {
  it('an alias without anchor or a merge key without a mapping is a problem at its line; validate goes on to the next file', async () => {
    const alias = pipelineFile('alias.yaml', TRADES.replace('codes: [BTCUSDT]', 'codes: *undefined'));
    const merge = pipelineFile('merge.yaml', TRADES.replace('  type: trade-snapshot', '  <<: *nope\n  type: trade-snapshot'));
    const r = await runCli(['validate', alias, merge, join(FIXTURES, 'tiny-trades.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${alias}:4:10: source.codes: alias *undefined names no anchor`);
    expect(r.stderr).toContain(`${merge}:3:7: source: alias *nope names no anchor`);
    expect(r.stderr).toMatch(/tiny-trades\.yaml: valid/);
    expect(r.stderr).not.toContain('looks like a bug');
  });
});

describe('options.outputDir and options.stateDir', () => {
  it('a NUL or a line break in them fails validate and run at its line, before any folder is made', async () => {
    const nul = pipelineFile('nul.yaml', `${TRADES}options:\n  outputDir: "out\\0x"\n`);
    const newline = pipelineFile('newline.yaml', `${TRADES}options:\n  stateDir: "state\\nx"\n`);
    const cwd = tempDir('ql-checks-cwd-');
    const [validate, runNul, runNewline] = await Promise.all([
      runCli(['validate', nul, newline]),
      runCli(['run', nul, ...SERVICE], { cwd }),
      runCli(['run', newline, ...SERVICE], { cwd }),
    ]);
    for (const r of [validate, runNul, runNewline]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toContain('looks like a bug');
    }
    expect(validate.stderr).toContain(`${nul}:10:14: options.outputDir: "out\\u0000x" contains a control character (U+0000, NUL)`);
    expect(validate.stderr).toContain(`${newline}:10:13: options.stateDir: "state\\nx" contains a control character (U+000A, a line break)`);
    expect(runNul.stderr).toContain(`${nul}:10:14: `);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--output and --state-dir follow the same rule', async () => {
    const cwd = tempDir('ql-checks-cwd-');
    const tiny = join(FIXTURES, 'tiny-trades.yaml');
    const [output, stateDir] = await Promise.all([
      runCli(['run', tiny, ...SERVICE, '--output', 'out\nx'], { cwd }),
      runCli(['run', tiny, ...SERVICE, '--state-dir', 'state\tx'], { cwd }),
    ]);
    expect(output.code).toBe(2);
    expect(output.stderr).toContain('quotelake: the output "out\\nx" contains a control character (U+000A, a line break)');
    expect(stateDir.code).toBe(2);
    expect(stateDir.stderr).toContain('quotelake: the state dir "state\\tx" contains a control character (U+0009, a tab)');
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('sink.encodeWorkers', () => {
  it('above 64 is a problem at its line, not an internal error of run', async () => {
    const file = pipelineFile('workers.yaml', `${TRADES}  encodeWorkersAfterRows: 0\n  encodeWorkers: 9007199254740991\n`);
    const [validate, run] = await Promise.all([runCli(['validate', file]), runCli(['run', file, ...SERVICE], { cwd: tempDir('ql-checks-cwd-') })]);
    for (const r of [validate, run]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}:10:18: sink.encodeWorkers: 9007199254740991 must be at most 64`);
      expect(r.stderr).not.toContain('looks like a bug');
    }
  });
});

describe('ndjson sink.path', () => {
  it('a line break or an unknown placeholder is a problem at the path; run writes no file', async () => {
    const ndjson = (path: string) => TRADES.replace('  type: parquet\n', `  type: ndjson\n  path: ${JSON.stringify(path)}\n`);
    const newline = pipelineFile('newline.yaml', ndjson('x.ndjson\nfoo'));
    const code = pipelineFile('code.yaml', ndjson('{dataset}{dataset}/{code}.ndjson'));
    const cwd = tempDir('ql-checks-cwd-');
    const [validate, run] = await Promise.all([runCli(['validate', newline, code]), runCli(['run', code, ...SERVICE, '--output', 'out'], { cwd })]);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(`${newline}:9:9: sink.path: "x.ndjson\\nfoo" contains a control character (U+000A, a line break)`);
    expect(validate.stderr).toContain(`${code}:9:9: sink.path: "{dataset}{dataset}/{code}.ndjson" has {code}, which is not a placeholder`);
    expect(run.code).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('problems printed', () => {
  it('2,000 repeated codes print 50 problems and how many more, in text and --json', async () => {
    const codes = Array(2_000).fill('BTCUSDT').join(', ');
    const file = pipelineFile('many.yaml', TRADES.replace('codes: [BTCUSDT]', `codes: [${codes}]`));
    const [text, json] = await Promise.all([runCli(['validate', file, join(FIXTURES, 'tiny-trades.yaml')]), runCli(['validate', '--json', file])]);
    expect(text.code).toBe(2);
    const lines = text.stderr.split('\n');
    expect(lines[0]).toBe('quotelake: 1999 problems in the pipeline:');
    expect(lines[1]).toBe(`${file}:4:20: source.codes[1]: "BTCUSDT" is listed already, at codes[0]: remove one (or write the value you meant)`);
    expect(lines.filter((l) => l.startsWith(`${file}:`))).toHaveLength(50);
    expect(text.stderr).toContain(`\n… and 1949 more problems in ${file}\n`);
    expect(text.stderr).toMatch(/tiny-trades\.yaml: valid/);
    expect(text.stderr.length).toBeLessThan(20_000);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout) as { pipelines: { valid: boolean; problems: string[] }[] };
    expect(doc.pipelines[0]!.problems).toHaveLength(51);
    expect(doc.pipelines[0]!.problems[50]).toBe(`… and 1949 more problems in ${file}`);
  });
});
