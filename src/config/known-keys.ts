/**
 * The keys a mapping of a pipeline accepts, read from the one schema, so an unknown key's message can
 * name the key it resembles. Walks the zod schema along an issue's path; a tagged union (source,
 * transforms[i], sink) is resolved by the `type` the document gives there.
 */
import type { z } from 'zod';
import type { IssuePath } from './describe-issue.js';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly in?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Unwrap optional/default/nullable/pipe, and pick the union member the document's tag names. */
function settle(schema: z.ZodType, value: unknown): z.ZodType | undefined {
  for (let i = 0; i < 16; i++) {
    const def = defOf(schema);
    if (def.innerType && ['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch'].includes(def.type)) schema = def.innerType;
    else if (def.type === 'pipe' && def.in) schema = def.in;
    else if (def.type === 'union' && def.options) {
      const tag = def.discriminator;
      const wanted = tag !== undefined && value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[tag] : undefined;
      const match = def.options.find((o) => {
        const shape = defOf(o).shape;
        const literal = tag !== undefined && shape?.[tag] ? (defOf(shape[tag]!) as Def & { values?: unknown[] }).values : undefined;
        return literal?.includes(wanted) ?? false;
      });
      if (match === undefined) return undefined;
      schema = match;
    } else return schema;
  }
  return schema;
}

export function knownKeysAt(schema: z.ZodType, input: unknown, path: IssuePath): string[] {
  let node: z.ZodType | undefined = schema;
  let value: unknown = input;
  for (const part of [...path, undefined]) {
    node = node === undefined ? undefined : settle(node, value);
    if (node === undefined) return [];
    if (part === undefined) break;
    const def = defOf(node);
    if (def.type === 'object' && def.shape && typeof part === 'string') node = def.shape[part];
    else if (def.type === 'array' && def.element && typeof part === 'number') node = def.element;
    else return [];
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  }
  const def = node === undefined ? undefined : defOf(node);
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}
