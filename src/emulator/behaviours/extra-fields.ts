/**
 * R5: unknown fields a service may add to any object. The names are none of the spec's fields in
 * any layout (so no halt layout or tick shape gains a known field by accident); the values cover
 * every JSON type, nested ones included.
 */

export const EXTRA_FIELD_NAMES: readonly string[] = ['ext', 'remark', 'x_source', 'update_flag', '_meta', 'srv_version'];

const VALUES: readonly unknown[] = ['', 'n/a', 0, 1.5, true, null, { note: 'unused', level: 2 }, [1, 'two', null], []];

/** A copy of `obj` with one or two unknown fields added at the end, chosen by u1 and u2 in [0, 1). */
export function withExtraFields<T extends object>(obj: T, u1: number, u2: number): T {
  const out: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  const first = Math.floor(u1 * EXTRA_FIELD_NAMES.length);
  const name = (i: number): string => EXTRA_FIELD_NAMES[i % EXTRA_FIELD_NAMES.length]!;
  if (!(name(first) in out)) out[name(first)] = VALUES[Math.floor(u2 * VALUES.length)];
  if (u2 < 0.5 && !(name(first + 1) in out)) out[name(first + 1)] = VALUES[Math.floor(u1 * 7919) % VALUES.length];
  return out as T;
}
