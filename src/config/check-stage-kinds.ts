/**
 * The linter's check of stages against each other: the kind of record each stage emits must be one
 * the next stage takes (declared by every definition, src/core/record-kinds.ts). A chain that does
 * not fit would otherwise pass validation and fail mid-run on the first record; here it is refused
 * with the stage to add, replace or remove, all derived from the registry.
 */
import type { ComponentDefinition, LintFinding, SinkDefinition, SourceDefinition, TransformDefinition } from '../core/definition.js';
import { kindLabel, RECORD_KINDS, type RecordKind } from '../core/record-kinds.js';

/**
 * The part of a pipeline this check reads: the stage types in order. A type is unknown to the
 * check when no definition has it (misspelt, or not text in a file that has other problems).
 */
export interface StageChain {
  readonly source: { readonly type: unknown };
  readonly transforms: readonly { readonly type: unknown }[];
  readonly sink: { readonly type: unknown };
}

type Registry = readonly ComponentDefinition[];

function find<K extends ComponentDefinition['kind']>(registry: Registry, kind: K, type: unknown) {
  return registry.find((d) => d.kind === kind && d.type === type) as Extract<ComponentDefinition, { kind: K }> | undefined;
}

function mapOf(def: TransformDefinition, kind: RecordKind): RecordKind | undefined {
  return (def.maps as Partial<Record<RecordKind, RecordKind>>)[kind];
}

function takenBy(def: TransformDefinition): RecordKind[] {
  return Object.keys(def.maps) as RecordKind[];
}

function sinkTakes(def: SinkDefinition, kind: RecordKind): boolean {
  return (def.takes as readonly RecordKind[]).includes(kind);
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? 'nothing') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/** What a stage takes, narrowed to the dataset at hand when it takes some of it (shorter, to the point). */
function describeTakes(kinds: readonly RecordKind[], have: RecordKind): string {
  const same = kinds.filter((k) => RECORD_KINDS[k].dataset === RECORD_KINDS[have].dataset);
  return orList((same.length > 0 ? same : kinds).map(kindLabel));
}

function addLine(types: readonly string[]): string {
  return types.map((t) => `"- type: ${t}"`).join(' then ');
}

/** Whether `kind` passes the transforms from `from` on and reaches the sink as something it takes. */
function restFits(registry: Registry, chain: StageChain, sink: SinkDefinition, kind: RecordKind, from: number): boolean {
  let current = kind;
  for (const t of chain.transforms.slice(from)) {
    const def = find(registry, 'transform', t.type);
    const next = def && mapOf(def, current);
    if (next === undefined) return false;
    current = next;
  }
  return sinkTakes(sink, current);
}

/** The fewest registered transforms that turn `kind` into one `wanted` accepts (breadth-first). */
function bridge(registry: Registry, kind: RecordKind, wanted: (k: RecordKind) => boolean): string[] | undefined {
  const transforms = registry.filter((d): d is TransformDefinition => d.kind === 'transform');
  const seen = new Set<RecordKind>([kind]);
  let frontier: Array<{ kind: RecordKind; path: string[] }> = [{ kind, path: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { kind: k, path } of frontier) {
      for (const t of transforms) {
        const out = mapOf(t, k);
        if (out === undefined) continue;
        if (wanted(out)) return [...path, t.type];
        if (!seen.has(out)) {
          seen.add(out);
          next.push({ kind: out, path: [...path, t.type] });
        }
      }
    }
    frontier = next;
  }
  return undefined;
}

function sinkHint(registry: Registry, sink: SinkDefinition, kind: RecordKind): string {
  const path = bridge(registry, kind, (k) => sinkTakes(sink, k));
  if (path) return `add ${addLine(path)} to transforms before the sink`;
  const sinks = registry.filter((d): d is SinkDefinition => d.kind === 'sink' && sinkTakes(d, kind)).map((d) => d.type);
  return sinks.length > 0 ? `use a sink that takes them: ${orList(sinks)}` : 'no registered sink writes them';
}

function transformHint(registry: Registry, chain: StageChain, sink: SinkDefinition, at: number, kind: RecordKind): string {
  const def = find(registry, 'transform', chain.transforms[at]!.type)!;
  const path = bridge(registry, kind, (k) => {
    const out = mapOf(def, k);
    return out !== undefined && restFits(registry, chain, sink, out, at + 1);
  });
  if (path) return `add ${addLine(path)} to transforms before it`;
  const takers = registry.filter((d): d is TransformDefinition => d.kind === 'transform' && d.type !== def.type && mapOf(d, kind) !== undefined);
  const fitting = takers.find((t) => restFits(registry, chain, sink, mapOf(t, kind)!, at + 1));
  if (fitting) return `replace it with "- type: ${fitting.type}"`;
  if (restFits(registry, chain, sink, kind, at + 1)) return 'remove it';
  // Nothing makes the whole rest fit at once: fix this stage first; the next check names the next misfit.
  return takers[0] ? `replace it with "- type: ${takers[0].type}"` : 'remove it';
}

/**
 * The first place where the chain does not fit, as a finding whose path is the stage (`sink` or
 * `transforms[i]`); none when it fits. Unknown types are left to the schema, which names them.
 */
export function checkStageKinds(chain: StageChain, registry: Registry): LintFinding[] {
  const source = find(registry, 'source', chain.source.type) as SourceDefinition | undefined;
  const sink = find(registry, 'sink', chain.sink.type) as SinkDefinition | undefined;
  if (!source || !sink) return [];
  // A component written outside quotelake may not declare its kinds (plain JavaScript): say so
  // here rather than fail on its first record.
  const known = Object.keys(RECORD_KINDS).join(', ');
  if (!Object.hasOwn(RECORD_KINDS, String(source.emits))) {
    return [{ path: ['source'], message: `source ${source.type} declares no record kind it emits: give its definition emits: one of ${known}` }];
  }
  if (!Array.isArray(sink.takes)) {
    return [{ path: ['sink'], message: `sink ${sink.type} declares no record kinds it takes: give its definition takes: [...] of ${known}` }];
  }
  const unmapped = chain.transforms.map((t, i) => [i, find(registry, 'transform', t.type)] as const).find(([, d]) => d !== undefined && (typeof d.maps !== 'object' || d.maps === null));
  if (unmapped) {
    return [{ path: ['transforms', unmapped[0]], message: `transform ${unmapped[1]!.type} declares no record kinds it maps: give its definition maps: { taken kind: emitted kind }` }];
  }
  let kind = source.emits as RecordKind;
  let from = `source ${source.type}`;
  for (const [i, t] of chain.transforms.entries()) {
    const def = find(registry, 'transform', t.type);
    if (!def) return [];
    const out = mapOf(def, kind);
    if (out === undefined) {
      const message = `${def.type} takes ${describeTakes(takenBy(def), kind)} but ${from} emits ${kindLabel(kind)}: ${transformHint(registry, chain, sink, i, kind)}`;
      return [{ path: ['transforms', i], message }];
    }
    kind = out;
    from = `transforms[${i}] ${def.type}`;
  }
  if (sinkTakes(sink, kind)) return [];
  const message = `${sink.type} takes ${describeTakes(sink.takes as readonly RecordKind[], kind)} but ${from} emits ${kindLabel(kind)}: ${sinkHint(registry, sink, kind)}`;
  return [{ path: ['sink'], message }];
}
