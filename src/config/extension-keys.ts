/**
 * Top-level keys that start with `x-` are the file's own (as in Docker Compose and OpenAPI): a place
 * for anchors that several parts share (`x-decimal: &dec {precision: 18, scale: 8}`, then
 * `decimal: *dec` or `<<: *dec`). They are taken out before the pipeline is checked.
 */
export const EXTENSION_KEY = /^x-/;

/** The document without its top-level `x-…` keys; anything but a mapping is returned as it is. */
export function withoutExtensionKeys(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !EXTENSION_KEY.test(key)));
}
