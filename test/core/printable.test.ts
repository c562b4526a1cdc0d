/** Text from files and the service reaches the terminal without its control characters. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printable } from '../../src/core/printable.js';
import { runCli, tempDir } from '../e2e/helpers/cli.js';

const ESCAPES = '\u001b[2J\u001b[31mRED\u001b[0m \u001b]0;title\u0007 a\rb\nc\u009b';

describe('printable', () => {
  it('writes control characters as their escapes and leaves the rest, accents included', () => {
    expect(printable(ESCAPES)).toBe('\\u001b[2J\\u001b[31mRED\\u001b[0m \\u001b]0;title\\u0007 a\\u000db\\u000ac\\u009b');
    expect(printable('Ünïcode — 700.HK')).toBe('Ünïcode — 700.HK');
  });

  it('list and validate print a pipeline file\'s description and codes without them', async () => {
    const dir = tempDir('ql-printable-');
    mkdirSync(join(dir, 'pipelines'));
    writeFileSync(
      join(dir, 'pipelines', 'evil.yaml'),
      `# evil ${ESCAPES.replace('\n', ' ')}\nname: evil\nsource:\n  type: kline-history\n  codes: ["\\e[2JBTC"]\n  intervals: [1h]\ntransforms: [{type: parse-decimals}]\nsink:\n  type: parquet\n`,
    );
    const [list, validate] = await Promise.all([runCli(['list'], { cwd: dir }), runCli(['validate', 'evil'], { cwd: dir })]);
    expect(list.code).toBe(0);
    expect(list.stdout + list.stderr).toContain('evil \\u001b[2J\\u001b[31mRED');
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain('"\\u001b[2JBTC" is not a product code');
    for (const r of [list, validate]) expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
