/**
 * A pipeline module that imports definePipeline from quotelake, in a folder where Node cannot find
 * quotelake (quotelake run from a global install or another project), is told the two ways out
 * instead of the generic "fix the pipeline file or the option named above".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const BODY = "{ name: 'm', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } }";

describe('a pipeline module importing quotelake from elsewhere', () => {
  it('names the import, exit 2, with how to install it or drop it', async () => {
    const dir = tempDir('ql-imports-');
    const file = join(dir, 'p.mjs');
    writeFileSync(file, `import { definePipeline } from 'quotelake';\nexport default definePipeline(${BODY});\n`);
    const plain = join(dir, 'plain.mjs');
    writeFileSync(plain, `export default ${BODY};\n`);
    const r = await runCli(['validate', file, plain]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: ${file}: cannot load pipeline module: Cannot find package 'quotelake' imported from`);
    expect(r.stderr).toContain(
      "  hint: Node resolves an import of quotelake from the pipeline file's folder: install quotelake in a package there (npm install quotelake), or drop the import and export the object itself (definePipeline only adds types)\n",
    );
    expect(r.stderr).toContain(`${plain}: valid`);
  });
});
