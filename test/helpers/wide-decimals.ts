/**
 * parse-decimals at 38,18 under a type the linter does not read (it refuses parse-decimals at
 * 38,18 into a narrower sink): a component from outside quotelake may emit wider decimals than the
 * sink's, and the sink itself must hold the line. Its type name is `wide-decimals`.
 */
import { z } from 'zod';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { ComponentDefinition, TransformDefinition } from '../../src/core/definition.js';
import { parseDecimals, ParseDecimals, resolveColumnTypes } from '../../src/transforms/parse-decimals/index.js';

const definition: TransformDefinition<Record<string, never>> = {
  ...(parseDecimals as unknown as TransformDefinition<Record<string, never>>),
  type: 'wide-decimals',
  configSchema: z.strictObject({}),
  examples: [{}],
  create: () => new ParseDecimals(resolveColumnTypes({ decimal: { ...DEFAULT_DECIMAL }, columns: {} })) as never,
};

export const wideDecimals = definition as ComponentDefinition;
