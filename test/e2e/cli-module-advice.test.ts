/**
 * A pipeline module (.mjs) is told what to write in JavaScript, not YAML: `codes: new Set()` and a
 * `transforms` object are to be made arrays. Before, both got the YAML advice `make it a list ("- "
 * before its first key)`, and the Set was called a mapping. A YAML file keeps its own advice.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('advice on a value that should be a list', () => {
  it('fits a module', async () => {
    const dir = tempDir('ql-module-advice-');
    const file = join(dir, 'trades.mjs');
    writeFileSync(
      file,
      `export default {
  name: 'trades',
  source: { type: 'trade-snapshot', codes: new Set(['BTCUSDT']) },
  transforms: { type: 'parse-decimals' },
  sink: { type: 'ndjson', keepState: 'yes' },
};
`,
    );
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}: source.codes: expected a list, got a Set: make it an array ([...set])\n`);
    expect(r.stderr).toContain(`${file}: transforms: expected a list, got a mapping: make it an array of stages, [{ type: ... }]\n`);
    expect(r.stderr).toContain(`${file}: sink.keepState: expected a boolean, got string "yes": write true or false, not a string\n`);
    expect(r.stderr).not.toContain('"- "');
    expect(r.stderr).not.toContain('YAML');
  });

  it('fits a YAML file', async () => {
    const dir = tempDir('ql-yaml-advice-');
    const file = join(dir, 'trades.yaml');
    writeFileSync(file, 'name: trades\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  type: parse-decimals\nsink:\n  type: ndjson\n');
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:6:3: transforms: expected a list, got a mapping: make it a list ("- " before its first key)`);
  });
});
