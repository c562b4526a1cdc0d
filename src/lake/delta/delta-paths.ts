/**
 * Where a Delta table keeps its log, and how a data file's key becomes an action's `path`.
 * Versions are zero-padded to 20 digits so a lexicographic listing is a numeric one (PROTOCOL.md
 * "Delta Log Entries"); a path is a relative URI (RFC 2396), so the `%XX` our hive folders already
 * carry for special characters is itself escaped (`%25XX`), as Spark does.
 */
import { DeltaLogError } from '../../core/errors.js';

export const LOG_DIR = '_delta_log';

/** `<table>/_delta_log/` (the table key without a trailing slash; '' for a table at the root). */
export function logPrefix(tableKey: string): string {
  return tableKey === '' ? `${LOG_DIR}/` : `${tableKey}/${LOG_DIR}/`;
}

export function versionName(version: number): string {
  if (!Number.isSafeInteger(version) || version < 0) throw new DeltaLogError(`invalid Delta version ${version}`, '');
  return String(version).padStart(20, '0');
}

export function commitKey(tableKey: string, version: number): string {
  return `${logPrefix(tableKey)}${versionName(version)}.json`;
}

export function checkpointKey(tableKey: string, version: number): string {
  return `${logPrefix(tableKey)}${versionName(version)}.checkpoint.parquet`;
}

export function lastCheckpointKey(tableKey: string): string {
  return `${logPrefix(tableKey)}_last_checkpoint`;
}

export interface LogListing {
  /** Versions that have a JSON commit, ascending. */
  commits: number[];
  /** Versions that have a classic (single-file) checkpoint, ascending. */
  checkpoints: number[];
}

/** The commits and classic checkpoints among the keys of a `_delta_log/` listing; the rest is ignored. */
export function parseLogListing(tableKey: string, keys: readonly string[]): LogListing {
  const prefix = logPrefix(tableKey);
  const commits: number[] = [];
  const checkpoints: number[] = [];
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    const m = /^(\d{20})\.(json|checkpoint\.parquet)$/.exec(name);
    if (!m) continue;
    (m[2] === 'json' ? commits : checkpoints).push(Number(m[1]));
  }
  const asc = (a: number, b: number) => a - b;
  return { commits: commits.sort(asc), checkpoints: checkpoints.sort(asc) };
}

/** Octets kept as they are in a path segment: RFC 3986 unreserved, plus `=` of hive folders. */
const KEEP = /[A-Za-z0-9\-._~=]/;

/** A key relative to the table root (`date=2026-11-21/part-r1-00001.parquet`) as an action's `path`. */
export function encodeDeltaPath(relativeKey: string): string {
  return relativeKey
    .split('/')
    .map((segment) =>
      Array.from(Buffer.from(segment, 'utf8'))
        .map((b) => {
          const c = String.fromCharCode(b);
          return b < 0x80 && KEEP.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
        })
        .join(''),
    )
    .join('/');
}

/** An action's `path` back to the key relative to the table root; absolute URIs are not ours. */
export function decodeDeltaPath(tableKey: string, path: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.startsWith('/')) {
    throw new DeltaLogError(`absolute path ${JSON.stringify(path)} in the log: quotelake tables hold relative paths only`, tableKey);
  }
  try {
    return decodeURIComponent(path);
  } catch (cause) {
    throw new DeltaLogError(`path ${JSON.stringify(path)} is not a valid URI`, tableKey, { cause });
  }
}

/** The storage key of a file named by an action's `path`. */
export function fileKeyOf(tableKey: string, path: string): string {
  const relative = decodeDeltaPath(tableKey, path);
  return tableKey === '' ? relative : `${tableKey}/${relative}`;
}
