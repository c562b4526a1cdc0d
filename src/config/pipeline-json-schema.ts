/** The JSON Schema of pipeline files, generated from the same zod schema (for editors). */
import * as z from 'zod';
import { buildPipelineSchema, type Registry } from './pipeline-schema.js';
import { EXTENSION_KEY } from './extension-keys.js';

export function pipelineJsonSchema(registry: Registry): Record<string, unknown> {
  const schema = z.toJSONSchema(buildPipelineSchema(registry), { io: 'input', unrepresentable: 'any' });
  // Top-level `x-…` keys hold a file's shared anchors (extension-keys.ts): editors accept them too.
  return { ...schema, patternProperties: { [EXTENSION_KEY.source]: {} }, title: 'quotelake pipeline' };
}

/** The exact text of pipeline.schema.json (stable: sorted as generated, 2-space indent, final newline). */
export function pipelineJsonSchemaText(registry: Registry): string {
  return `${JSON.stringify(pipelineJsonSchema(registry), null, 2)}\n`;
}
