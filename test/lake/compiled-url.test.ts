/** Worker threads load compiled JavaScript: from the TypeScript sources that is the twin under dist/. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledUrl } from '../../src/lake/encode/compiled-url.js';

describe('compiledUrl', () => {
  it('maps a module next to a src/ file to the same module under dist/, which exists', () => {
    const here = new URL('../../src/lake/parquet/parquet-pool.js', import.meta.url);
    const url = compiledUrl(new URL('./encode-worker.js', here));
    expect(url.href).toBe(new URL('../../dist/lake/parquet/encode-worker.js', import.meta.url).href);
    expect(existsSync(fileURLToPath(url))).toBe(true);
  });

  it('leaves a URL outside src/ as it is', () => {
    const fixture = new URL('../fixtures/dying-encode-worker.mjs', import.meta.url);
    expect(compiledUrl(fixture)).toBe(fixture);
  });
});
