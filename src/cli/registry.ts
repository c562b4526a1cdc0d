/**
 * The components the CLI builds pipelines from: the project registry (src/components.ts), completed
 * with the shipped transforms and sinks it does not list yet, so the CLI works while the registry
 * is being filled. Once src/components.ts lists them all, this adds nothing.
 */
import { components } from '../components.js';
import type { ComponentDefinition } from '../core/definition.js';
import type { Registry } from '../config/pipeline-schema.js';
import { arrowSink } from '../sinks/arrow/index.js';
import { ndjsonSink } from '../sinks/ndjson/index.js';
import { parquetSink } from '../sinks/parquet/index.js';
import { normalizeHalts } from '../transforms/normalize-halts/index.js';
import { parseDecimals } from '../transforms/parse-decimals/index.js';

const SHIPPED: readonly ComponentDefinition[] = [
  parseDecimals as ComponentDefinition,
  normalizeHalts as ComponentDefinition,
  parquetSink as ComponentDefinition,
  arrowSink as ComponentDefinition,
  ndjsonSink as ComponentDefinition,
];

export const registry: Registry = [
  ...components,
  ...SHIPPED.filter((d) => !components.some((c) => c.kind === d.kind && c.type === d.type)),
];
