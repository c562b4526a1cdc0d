/**
 * A JavaScript pipeline module that throws something other than an Error, or whose default export
 * is a function or a Promise, is a problem of that file in words a person acts on (exit 2), never
 * "undefined", a "looks like a bug" crash (exit 1), or "got function a mapping".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const PIPELINE = "{ name: 'm', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } }";

/** A dead service: a request would fail with exit 1, so exit 2 shows the file was refused first. */
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--plan', 'professional'];

function moduleFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('pipeline modules that give no pipeline', () => {
  it('a thrown null, undefined, text or plain object is named as such, exit 2', async () => {
    const dir = tempDir('ql-module-');
    const cases = [
      [moduleFile(dir, 'null.mjs', 'throw null;\n'), 'cannot load pipeline module: it threw null, not an Error'],
      [moduleFile(dir, 'undefined.mjs', 'throw undefined;\n'), 'cannot load pipeline module: it threw undefined, not an Error'],
      [moduleFile(dir, 'text.mjs', "throw 'no codes configured';\n"), 'cannot load pipeline module: it threw the text "no codes configured", not an Error'],
      [moduleFile(dir, 'object.mjs', 'throw { code: 42 };\n'), 'cannot load pipeline module: it threw {"code":42}, not an Error'],
    ] as const;
    const results = await Promise.all(cases.map(([file]) => runCli(['validate', file])));
    results.forEach((r, i) => {
      const [file, message] = cases[i]!;
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`quotelake: ${file}: ${message}\n`);
      expect(r.stderr).not.toContain('looks like a bug');
    });
    const run = await runCli(['run', cases[0][0], ...SERVICE, '--output', join(dir, 'out')]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('it threw null, not an Error');
  });

  it('a default export that is a function, a class or a Promise says what to export instead', async () => {
    const dir = tempDir('ql-module-');
    const fn = moduleFile(dir, 'fn.mjs', `export default () => (${PIPELINE});\n`);
    const cls = moduleFile(dir, 'cls.mjs', 'export default class Pipeline {}\n');
    const promise = moduleFile(dir, 'promise.mjs', `export default Promise.resolve(${PIPELINE});\n`);
    const fnValue = moduleFile(dir, 'fn-value.mjs', `export default ${PIPELINE.replace("codes: ['BTCUSDT']", "codes: () => ['BTCUSDT']")};\n`);
    const r = await runCli(['validate', fn, cls, promise, fnValue]);
    expect(r.code, r.stderr).toBe(2);
    const fix = 'the default export is a function, not a pipeline: export the pipeline itself, export default definePipeline({ name, source, sink })';
    expect(r.stderr).toContain(`${fn}: ${fix}\n`);
    expect(r.stderr).toContain(`${cls}: ${fix}\n`);
    expect(r.stderr).toContain(`${promise}: the default export is a Promise, not a pipeline: await it where it is exported (export default await ...; a module may use top-level await)\n`);
    expect(r.stderr).toContain(`${fnValue}: source.codes: expected a list, got a function: give the value itself, not a function that returns it\n`);
    expect(r.stderr).not.toMatch(/got function|is required/);
  });

  it('a default export of null says what to export, not "remove the key"', async () => {
    const dir = tempDir('ql-module-');
    const file = moduleFile(dir, 'null-export.mjs', 'export default null;\n');
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}: the default export is null, not a pipeline: export the pipeline itself, export default definePipeline({ name, source, sink })\n`);
    expect(r.stderr).not.toContain('remove the key');
  });

  it('a getter of the export that throws is a problem at its key, exit 2, not a crash', async () => {
    const dir = tempDir('ql-module-');
    const file = moduleFile(
      dir,
      'getter.mjs',
      `const source = { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], get since() { throw new Error('LAKE_SINCE is not set'); } };\nexport default { name: 'g', source, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };\n`,
    );
    const [validate, run] = await Promise.all([runCli(['validate', file]), runCli(['run', file, ...SERVICE, '--output', join(dir, 'out')])]);
    for (const r of [validate, run]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`quotelake: ${file}: source.since: reading it threw: LAKE_SINCE is not set\n`);
      expect(r.stderr).not.toContain('looks like a bug');
      expect(r.stderr).not.toContain('    at ');
    }
  });
});
