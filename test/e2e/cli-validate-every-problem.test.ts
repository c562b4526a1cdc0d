/**
 * validate names every problem of a file in one pass: a bad option of one stage no longer hides
 * that the stages do not fit each other (which showed only once the option was fixed). run's
 * refusal reads the file the same way; an alias without anchor hides nothing either. Through the
 * built CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

// A dead service: a request would fail with exit 1, so exit 2 shows the file was refused first.
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl', '--plan', 'free'];

const TEXT = ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [7x]', 'transforms:', '  - type: normalize-halts', 'sink:', '  type: parquet', ''].join('\n');

describe('a bad option beside stages that do not fit', () => {
  it('validate and run name both, at their lines, in file order; --json keeps its shape', async () => {
    const file = join(tempDir('ql-every-problem-'), 'x.yaml');
    writeFileSync(file, TEXT);
    const option = `${file}:5:15: source.intervals[0]: "7x" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo`;
    const chain = `${file}:7:5: transforms[0]: normalize-halts takes raw halts but source kline-history emits raw K-lines: replace it with "- type: parse-decimals"`;
    const [text, json, run] = await Promise.all([
      runCli(['validate', file]),
      runCli(['validate', '--json', file]),
      runCli(['run', file, ...SERVICE], { cwd: tempDir('ql-every-problem-cwd-') }),
    ]);
    for (const r of [text, run]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`quotelake: 2 problems in the pipeline:\n${option}\n${chain}\n`);
    }
    expect(json.code, json.stderr).toBe(2);
    const report = JSON.parse(json.stdout) as { valid: boolean; pipelines: { file: string; valid: boolean; problems: string[] }[] };
    expect(report.valid).toBe(false);
    expect(report.pipelines).toEqual([{ file, valid: false, problems: [option, chain] }]);
  });
});

describe('an alias without anchor beside other problems', () => {
  it('validate names the alias and the rest, each at its line', async () => {
    const file = join(tempDir('ql-every-problem-'), 'alias.yaml');
    writeFileSync(file, ['name: x', 'service:', '  plan: professionall', 'source:', '  type: kline-history', '  codes: *missing', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', '  colour: red', ''].join('\n'));
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      [
        'quotelake: 3 problems in the pipeline:',
        `${file}:3:9: service.plan: "professionall" is not one of free, basic, premium, professional, all-hk, all-cn, all-us; did you mean "professional"?`,
        `${file}:6:10: source.codes: alias *missing names no anchor: mark the value to reuse with &missing above it, or correct the name`,
        `${file}:12:3: sink: unknown key "colour"`,
        '',
      ].join('\n'),
    );
  });
});
