/**
 * A stage of a kind the registry holds no type of (a program's own registry, `[]` or sinks only).
 * A union of no types is zod's never, whose "expected a never, got a mapping" said nothing of the
 * registry: this names the type asked for and the types the registry has.
 */
import * as z from 'zod';
import type { ComponentDefinition } from '../core/definition.js';
import { quoteValue } from '../core/field-failure.js';

export function unregisteredKind(kind: ComponentDefinition['kind'], registry: readonly ComponentDefinition[]): z.ZodType {
  const held = registry.map((d) => `${d.kind} ${d.type}`);
  const registryHas = held.length === 0 ? 'the registry is empty' : `the registry has no ${kind} types (it has ${held.join(', ')})`;
  return z.unknown().superRefine((stage, ctx) => {
    const type = stage !== null && typeof stage === 'object' ? (stage as { type?: unknown }).type : undefined;
    const named = typeof type === 'string';
    ctx.addIssue({
      code: 'custom',
      path: named ? ['type'] : [],
      message: named ? `${kind} type ${quoteValue(type, 200)} is not in the registry: ${registryHas}` : `a ${kind} needs a type from the registry, and ${registryHas}`,
      params: { lint: true },
    });
  });
}
