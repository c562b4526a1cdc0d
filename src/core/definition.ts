/**
 * How a component declares itself to the registry (src/components.ts): its `type` (the folder name),
 * a one-line summary, a zod schema for its config (which also feeds the pipeline JSON Schema and the
 * README reference), examples that must parse, and a constructor.
 */
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { Sink, Source, Transform } from './component.js';
import type { KindOf } from './record-kinds.js';

/** What a component may use when it is created; everything else reaches it through RunContext. */
export interface ComponentEnv {
  /** Output root (I5): a folder, or an `s3://bucket/prefix` URL when `storage` is an object store. */
  readonly outputDir: string;
  /**
   * Where the output lives (a LakeStorage of src/lake; opaque here so core imports nothing of ours).
   * Undefined: the local folder `outputDir`.
   */
  readonly storage?: unknown;
  /** State directory (I5: default `<output>/.state`). */
  readonly stateDir: string;
  /** Where the ndjson sink writes when told `stdout`. */
  readonly stdout: Writable;
  /** The pipeline's name (a Delta table's series watermarks are keyed by it). */
  readonly pipeline?: string;
  /** The service client, for sources. Typed by src/api; kept opaque here so core imports nothing of ours. */
  readonly client?: unknown;
  /**
   * What the output's dataset holds, from its manifests (the runtime reads them: sources do not
   * import the lake): per live file, its path under the dataset folder (the hive partition, e.g.
   * `interval=1m/...`) and its key ranges (per group, e.g. a code, the lowest and highest order
   * value, e.g. a bar's open ms). Judges "held" by the data, not by a pipeline's own checkpoint.
   */
  readonly heldKeys?: (dataset: string) => Promise<readonly HeldFile[]>;
  /**
   * What the sink's dataset already is on the output, read by the runtime: a Delta table (it has a
   * log) or plain hive files. A sink's create cannot wait on an object store. Undefined: the dataset
   * holds neither yet, or the caller did not look.
   */
  readonly tableKind?: 'delta' | 'hive';
}

export interface HeldFile {
  readonly path: string;
  readonly ranges: Readonly<Record<string, readonly [unknown, unknown]>>;
}

/** A cross-field problem found by a definition's `lint`; `path` is relative to the component's config. */
export interface LintFinding {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

interface DefinitionBase<C> {
  readonly type: string;
  readonly summary: string;
  /** Must be an object schema: the registry adds `type` to it and makes it strict. */
  readonly configSchema: z.ZodType<C>;
  readonly examples: readonly unknown[];
  /** Cross-field checks the schema cannot express (e.g. 2h bars on a stock); no I/O. */
  lint?(config: C): readonly LintFinding[];
}

export interface SourceDefinition<C = unknown, T = unknown> extends DefinitionBase<C> {
  readonly kind: 'source';
  /** The dataset its records belong to: `kline`, `trade`, `depth` or `halt`. */
  dataset(config: C): string;
  /** The kind of record it yields (the next stage must take it). */
  readonly emits: KindOf<T>;
  /**
   * It samples the present in rounds (a book, the latest trades or bars): what it missed cannot be
   * fetched later, so a stopped run is not resumed and the next one takes all its rounds anew. Its
   * rounds are one stream, which a token pool keeps on one token: planned with that token's limits.
   */
  readonly polls?: boolean;
  /** It reads through the service client: a run without one is refused before it touches the output. */
  readonly needsClient?: boolean;
  create(config: C, env: ComponentEnv): Source<T>;
}

export interface TransformDefinition<C = unknown, I = unknown, O = unknown> extends DefinitionBase<C> {
  readonly kind: 'transform';
  /**
   * Each kind it takes → the kind it emits for it. A kind not listed is refused by the linter:
   * the transform would not know what to do with such records.
   */
  readonly maps: { readonly [K in KindOf<I>]?: KindOf<O> };
  /**
   * It keeps no reference to a batch's records beyond `apply` (the shipped transforms). Otherwise
   * (a user's own transform, by default) the records may be read later, after a sink took them:
   * the runtime keeps whatever backs them from being reused (Lane.pin).
   */
  readonly keepsNoRecords?: boolean;
  create(config: C, env: ComponentEnv): Transform<I, O>;
}

export interface SinkDefinition<C = unknown, T = unknown> extends DefinitionBase<C> {
  readonly kind: 'sink';
  /** The kinds it can write; the linter refuses a pipeline that hands it anything else. */
  readonly takes: readonly KindOf<T>[];
  /**
   * Whether a run with this config reads and saves checkpoints (default: yes). A sink whose output
   * each run replaces (an NDJSON look) says no unless asked, so every run delivers its whole window.
   */
  keepsState?(config: C): boolean;
  /**
   * Whether it writes datasets into the output's lake (manifests, layout file): its checkpoints are
   * then tied to that lake's id, so a state folder shared with another output is refused.
   */
  readonly writesLake?: boolean;
  /**
   * Whether a run with this config writes into the output folder (a lake, a file; default yes). One
   * that streams to stdout does not: without state (a look) the run then leaves the output to its
   * owner, and takes no lock on it, so a look never stops a scheduled run there, nor waits for one.
   */
  writesOutput?(config: C): boolean;
  /**
   * Why this config cannot write to an object store (an s3:// output), or undefined: asked before
   * the lake is touched, so such a run is refused with nothing written (no lease, probe or record).
   */
  objectStoreProblem?(config: C): string | undefined;
  /**
   * The files it writes under a local output besides the lake's own, relative to the output and in
   * their longest form (a temporary name included), for `dataset`: held to the system's path limit
   * before a run touches anything (lake/local-path-room.ts). Default: none.
   */
  localFiles?(config: C, dataset: string): readonly string[];
  /**
   * Checks that depend on the dataset the pipeline's source writes (`lint` knows no source), run
   * with the whole pipeline; `path` is relative to the sink's config, as lint's.
   */
  lintForDataset?(config: C, dataset: string): readonly LintFinding[];
  create(config: C, env: ComponentEnv & { readonly dataset: string }): Sink<T>;
}

export type ComponentDefinition = SourceDefinition | TransformDefinition | SinkDefinition;
