/** `quotelake validate` refuses an NDJSON path outside the output folder: exit 2, file:line:column, what to do. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

describe('a sink path outside --output', () => {
  it('validate: exit 2 at the path, with what to do', async () => {
    const r = await runCli(['validate', join(ROOT, 'test/fixtures/pipelines/ndjson-path-escapes.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ndjson-path-escapes.yaml:8:9: sink.path: "sub/../../{dataset}.ndjson" leads out of the folder (..): an NDJSON file must be inside the output folder');
    expect(r.stderr).toContain('hint: fix the pipeline file');
  });
});
