import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedPipelineLoader } from '../../src/config/pipeline-cache.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import * as parse from '../../src/config/parse-pipeline.js';
import { testRegistry } from '../helpers/test-components.js';

// Counts the YAML parses the cache lets through (the real parser still answers).
vi.mock('../../src/config/parse-pipeline.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/config/parse-pipeline.js')>();
  return { ...real, parsePipelineYaml: vi.fn(real.parsePipelineYaml) };
});

const registry = testRegistry({});
const PIPELINE = '# Demo\nname: p\nsource: { type: counter, batches: 1, rowsPerBatch: 2 }\nsink: { type: memory }\n';

describe('cachedPipelineLoader (a worker loading one pipeline per slice)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ql-pipeline-cache-'));
    vi.mocked(parse.parsePipelineYaml).mockClear();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('parses one text once for loads side by side and after, each caller getting its own copy equal to loadPipeline\'s', async () => {
    const file = join(dir, 'p.yaml');
    await writeFile(file, PIPELINE);
    const load = cachedPipelineLoader();
    const [a, b] = await Promise.all([load(file, registry), load(file, registry)]);
    const c = await load(file, registry);
    expect(parse.parsePipelineYaml).toHaveBeenCalledTimes(1);
    expect(a).toEqual(await loadPipeline(file, registry));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(b).not.toBe(a);
    (a.source as Record<string, unknown>).batches = 99;
    expect((await load(file, registry)).source).toMatchObject({ batches: 1 });
  });

  it('sees an edited file at the next load', async () => {
    const file = join(dir, 'p.yaml');
    await writeFile(file, PIPELINE);
    const load = cachedPipelineLoader();
    expect((await load(file, registry)).description).toBe('Demo');
    await writeFile(file, PIPELINE.replace('# Demo', '# Edited'));
    expect((await load(file, registry)).description).toBe('Edited');
    expect(parse.parsePipelineYaml).toHaveBeenCalledTimes(2);
  });

  it('fails a broken file as loadPipeline does, every time, and loads it once mended', async () => {
    const file = join(dir, 'p.yaml');
    const broken = PIPELINE.replace('rowsPerBatch: 2 }', 'rowsPerBatch: 2, x: 1 }');
    await writeFile(file, broken);
    const load = cachedPipelineLoader();
    await expect(load(file, registry)).rejects.toThrow(`${file}:3:55: source: unknown key "x"`);
    await expect(load(file, registry)).rejects.toThrow(`${file}:3:55: source: unknown key "x"`);
    await writeFile(file, PIPELINE);
    expect((await load(file, registry)).name).toBe('p');
    await expect(load(join(dir, 'missing.yaml'), registry)).rejects.toThrow(/missing\.yaml: cannot read pipeline file/);
  });
});
