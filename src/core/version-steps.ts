/**
 * Reading a versioned state or format file through a chain of steps, version n → n+1, one
 * function per step (the way dlt migrates its pipeline state): a file of any older version is
 * brought to the newest shape in memory, a file of a newer version is refused before any of it is
 * used, never half-read. Each file kind lists its steps beside its type (e.g. manifest-versions.ts).
 */
import { FormatVersionError } from './errors.js';

/** One step: a document of version n (its `version` field included) → the same at n+1. */
export type VersionStep = (doc: Record<string, unknown>) => Record<string, unknown>;

export interface VersionChain {
  /** What the file is, for messages: `manifest`, `commit journal`, `checkpoint file`. */
  readonly what: string;
  /** The newest version this quotelake reads and writes. */
  readonly newest: number;
  /** steps[n] turns version n into n + 1; one for every n from the oldest to newest - 1. */
  readonly steps: Readonly<Record<number, VersionStep>>;
  /** The version of a file written before the kind had one (none: such a file is refused). */
  readonly unversioned?: number;
}

/** The file's version as written (for callers that must know where it started). */
export function versionOf(doc: unknown, chain: VersionChain, file: string): number {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new FormatVersionError(chain.what, file, undefined, chain.newest);
  const raw = (doc as Record<string, unknown>).version;
  if (raw === undefined && chain.unversioned !== undefined) return chain.unversioned;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) throw new FormatVersionError(chain.what, file, raw, chain.newest);
  if (raw > chain.newest) throw new FormatVersionError(chain.what, file, raw, chain.newest);
  return raw;
}

/** The parsed file brought to the chain's newest version (the input is not modified). */
export function upgradeToNewest(doc: unknown, chain: VersionChain, file: string): Record<string, unknown> {
  let version = versionOf(doc, chain, file);
  let out = { ...(doc as Record<string, unknown>), version };
  while (version < chain.newest) {
    const step = chain.steps[version];
    if (!step) throw new FormatVersionError(chain.what, file, version, chain.newest);
    out = { ...step(out), version: version + 1 };
    version += 1;
  }
  return out;
}
