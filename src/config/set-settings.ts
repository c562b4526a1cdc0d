/**
 * The settings of a pipeline block that are set: an explicit `undefined` (TypeScript pipelines may
 * write one) must not replace the client's default when the block is spread over it.
 */
export type SetSettings<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

export function setSettings<T extends object>(block: T | undefined): SetSettings<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block ?? {})) if (value !== undefined) out[key] = value;
  return out as SetSettings<T>;
}
