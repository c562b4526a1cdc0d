import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { pipelineJsonSchema, pipelineJsonSchemaText } from '../../src/config/pipeline-json-schema.js';
import { JSON_SCHEMA_PATH, writeJsonSchema } from '../../src/config/write-json-schema.js';
import { testRegistry } from '../helpers/test-components.js';

describe('pipeline JSON Schema', () => {
  it('pipeline.schema.json at the repo root is in sync with the registry', async () => {
    const committed = await readFile(JSON_SCHEMA_PATH, 'utf8').catch(() => '');
    const expected = pipelineJsonSchemaText(components);
    if (committed !== expected) {
      throw new Error('pipeline.schema.json is out of date: run `npm run schema` to regenerate');
    }
    expect(JSON.parse(committed).title).toBe('quotelake pipeline');
  });

  it('describes components from the registry, strict, with the discriminating type', () => {
    const schema = pipelineJsonSchema(testRegistry({})) as {
      properties: Record<string, { oneOf?: Array<{ properties: Record<string, unknown>; additionalProperties: boolean; required: string[] }> }>;
      additionalProperties: boolean;
      required: string[];
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'source', 'sink']);
    const source = schema.properties.source!.oneOf![0]!;
    expect(source.properties.type).toEqual({ type: 'string', const: 'counter' });
    expect(source.additionalProperties).toBe(false);
    expect(source.required).toEqual(['type', 'batches', 'rowsPerBatch']);
    expect(schema.properties.options).toMatchObject({ additionalProperties: false });
  });

  it('writeJsonSchema writes the same text and reports whether it changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-schema-'));
    const path = join(dir, 'pipeline.schema.json');
    expect(await writeJsonSchema(components, path)).toEqual({ path, changed: true });
    expect(await readFile(path, 'utf8')).toBe(pipelineJsonSchemaText(components));
    expect(await writeJsonSchema(components, path)).toEqual({ path, changed: false });
  });
});

describe('README pipeline reference', () => {
  it('is the reference generated from the schema (run `npm run schema` to regenerate)', async () => {
    const { readFile } = await import('node:fs/promises');
    const { withPipelineReference } = await import('../../src/config/pipeline-reference.js');
    const { README_PATH } = await import('../../src/config/write-json-schema.js');
    const { components } = await import('../../src/components.js');
    const readme = await readFile(README_PATH, 'utf8');
    expect(readme, 'README.md pipeline reference is stale: run `npm run schema`').toBe(withPipelineReference(readme, components));
    expect(readme).toContain('**`kline-history`**');
  });
});

describe('README pipeline reference bounds', () => {
  it('shows every lower bound the validator holds, also where there is no real maximum', async () => {
    const { pipelineReferenceMarkdown } = await import('../../src/config/pipeline-reference.js');
    const rows = pipelineReferenceMarkdown(components).split('\n');
    const row = (key: string) => rows.find((r) => r.startsWith(`| \`${key}\` |`));
    // rowGroupRows: 100 is refused ("must be at least 1024"), so the table may not say a bare "integer".
    expect(row('rowGroupRows')).toBe('| `rowGroupRows` | integer >= 1024 | `131072` | Rows per Parquet row group. |');
    expect(row('maxBufferedBytes')).toContain('| integer >= 1024 |');
    expect(row('maxRowsPerFile')).toContain('| integer >= 1 |');
    expect(row('retiredGraceMs')).toContain('| integer >= 0 |');
    // An exclusive bound (positive()) of an integer is its next whole number.
    expect(row('batchMaxRows')).toContain('| integer >= 1 |');
    // Both bounds keep their range form.
    expect(row('concurrency')).toContain('| integer 1..64 |');
  });
});
