import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';

const dir = fileURLToPath(new URL('../../pipelines/', import.meta.url));

describe('shipped pipelines', () => {
  it('every pipelines/*.yaml validates against the real registry and has a description', async () => {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f));
    for (const f of files) {
      const p = await loadPipeline(`${dir}${f}`, components);
      expect(p.name, f).toBe(f.replace(/\.ya?ml$/, ''));
      expect(p.description, f).toBeTruthy();
    }
  });
});
