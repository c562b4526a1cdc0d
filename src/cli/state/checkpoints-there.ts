/**
 * What a `state reset --stream` that matched nothing could have matched, so a typo shows itself:
 * `; its checkpoints: a, b, ...`. Several pipelines may each hold the same stream (demo and
 * demo-kline-latest both have `kline/600000.SH/1h`): each is then named with its pipeline, once.
 */
export interface HeldCheckpoints {
  readonly pipeline: string;
  readonly streams: readonly string[];
}

/** Named in full up to this many; the rest are counted. */
const SHOWN = 8;

export function checkpointsThere(held: readonly HeldCheckpoints[]): string {
  const byPipeline = new Map<string, Set<string>>();
  for (const h of held) for (const s of h.streams) byPipeline.set(h.pipeline, (byPipeline.get(h.pipeline) ?? new Set()).add(s));
  const several = byPipeline.size > 1;
  const all = [...byPipeline.keys()].sort().flatMap((p) => [...byPipeline.get(p)!].sort().map((s) => (several ? `${p}: ${s}` : s)));
  if (all.length === 0) return '';
  const more = all.length > SHOWN ? ` and ${all.length - SHOWN} more ("quotelake state show" lists them)` : '';
  return `; its checkpoints: ${all.slice(0, SHOWN).join(', ')}${more}`;
}
