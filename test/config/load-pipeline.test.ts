import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import { positionInCheckReport, syntaxErrorPosition } from '../../src/config/syntax-error-position.js';
import { testRegistry } from '../helpers/test-components.js';

const registry = testRegistry({});

describe('loadPipeline', () => {
  it('reads a YAML file and reports errors with its path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-load-'));
    const file = join(dir, 'p.yaml');
    await writeFile(file, '# Demo\nname: p\nsource: { type: counter, batches: 1, rowsPerBatch: 2 }\nsink: { type: memory }\n');
    expect((await loadPipeline(file, registry)).description).toBe('Demo');
    await writeFile(file, 'name: p\nsource: { type: counter, batches: 1, rowsPerBatch: 2, x: 1 }\nsink: { type: memory }\n');
    await expect(loadPipeline(file, registry)).rejects.toThrow(`${file}:2:55: source: unknown key "x"`);
  });

  it('loads a module whose default export is a definePipeline() object, validated by the same schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-load-'));
    const file = join(dir, 'p.mjs');
    await writeFile(file, "export default { name: 'p', source: { type: 'counter', batches: 1, rowsPerBatch: 2 }, sink: { type: 'memory' }, options: { onReject: 'drop' } };\n");
    const p = await loadPipeline(file, registry);
    expect(p.options).toMatchObject({ onReject: 'drop', batchMaxRows: 50_000 });
    await writeFile(join(dir, 'bad.mjs'), "export default { name: 'p', source: { type: 'counter', batches: 1, rowsPerBatch: 2 }, sink: { type: 'memory' }, sinkk: 1 };\n");
    await expect(loadPipeline(join(dir, 'bad.mjs'), registry)).rejects.toThrow(`${join(dir, 'bad.mjs')}: unknown key "sinkk"`);
  });

  it('refuses a missing file and an unknown extension', async () => {
    await expect(loadPipeline('/nonexistent/p.yaml', registry)).rejects.toThrow(/^\/nonexistent\/p\.yaml: cannot read pipeline file/);
    await expect(loadPipeline('p.toml', registry)).rejects.toThrow('p.toml: unsupported pipeline file type ".toml" (use .yaml, .yml, .ts, .mts, .js or .mjs)');
  });
});

describe('syntaxErrorPosition', () => {
  it('finds a module\'s syntax error with node --check; a sound module has none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-load-'));
    const file = join(dir, 'broken.mjs');
    await writeFile(file, "const a = 1;\nexport default {\n  name: 'p',\n  source: { type: 'counter', codes: [BTC },\n};\n");
    expect(syntaxErrorPosition(file)).toEqual({ line: 4, column: 42 });
    await writeFile(file, "export default { name: 'p' };\n");
    expect(syntaxErrorPosition(file)).toBeUndefined();
  });

  it('reads the line from the first line and the column from the caret; nothing from anything else', () => {
    expect(positionInCheckReport("/p/x.mjs:4\n  source: { codes: [BTC },\n                      ^\n\nSyntaxError: Unexpected token '}'\n")).toEqual({ line: 4, column: 23 });
    expect(positionInCheckReport('node: bad option: --check\n')).toBeUndefined();
  });
});
