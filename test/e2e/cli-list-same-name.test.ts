/**
 * `x.yml` and `x.js` side by side in ./pipelines: `quotelake run x` runs the YAML one (the order
 * names are looked up in), so `list` names that one `x` and the other by the path that runs it.
 * Before, both were listed as `x`, the module first, and nothing told which one the name ran.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('two local pipeline files of one name', () => {
  it('list names the one the name runs, and the other by its path', async () => {
    const cwd = tempDir('ql-list-same-');
    mkdirSync(join(cwd, 'pipelines'));
    writeFileSync(join(cwd, 'pipelines/x.yml'), '# The YAML one.\nname: x-yaml\nsource: { type: trade-snapshot, codes: [BTCUSDT] }\nsink: { type: ndjson }\n');
    writeFileSync(join(cwd, 'pipelines/x.js'), "export default { name: 'x-js', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, sink: { type: 'ndjson' } };\n");
    const [text, json, validate, byPath] = await Promise.all([
      runCli(['list'], { cwd }),
      runCli(['list', '--json'], { cwd }),
      runCli(['validate', 'x'], { cwd }),
      runCli(['validate', join('pipelines', 'x.js')], { cwd }),
    ]);
    expect(validate.stderr).toContain('valid (pipeline x-yaml,');
    expect(byPath.stderr).toContain('valid (pipeline x-js,');
    const local = (JSON.parse(json.stdout) as { pipelines: { name: string; file: string; origin: string }[] }).pipelines.filter((p) => p.origin === 'local');
    expect(local.map((p) => [p.name, p.file])).toEqual([
      [join('pipelines', 'x.js'), join('pipelines', 'x.js')],
      ['x', join('pipelines', 'x.yml')],
    ]);
    expect(text.stdout).toMatch(/^ {2}x +The YAML one\.$/m);
    expect(text.stdout).toMatch(/^ {2}pipelines\/x\.js +\(TypeScript\/JavaScript pipeline\)$/m);
  });
});
