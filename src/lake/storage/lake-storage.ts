/**
 * What the lake needs from the place it lives: objects named by keys relative to the output root
 * (`/`-separated, e.g. `kline/interval=1m/.../part-r1-00001.parquet`), never directories. Callers
 * never create or remove a folder: a backend makes parents on write and drops empty ones on delete,
 * so an object store (which has no folders) can be a second backend without touching the sinks.
 *
 * Visibility is the backend's promise, not the caller's: `put` is for objects no reader looks at
 * yet (staging); `publish` and `commit` make an object visible whole or not at all (a local rename;
 * on an object store, a single PUT or a server-side copy, both atomic per object).
 */
export interface ListOptions {
  /** Only keys that sort after this one (a whole key, not relative to the prefix). */
  readonly startAfter?: string;
  /** At most this many keys, the first in key order. */
  readonly limit?: number;
}

export interface LakeStorage {
  /** A human-readable name of the root (a folder, a bucket URL): for messages only. */
  readonly root: string;
  /** An object store's own endpoint (not AWS's), so a command a message names reaches the same store. */
  readonly endpoint?: string | undefined;
  /**
   * An object store only (a folder's parents are read from the file system): the lake whose prefix
   * holds this one, found by `marker` (the layout file) under a parent prefix, with the first segment
   * below that lake's root; undefined when this prefix has the marker itself or no parent has it.
   */
  enclosingLake?(marker: string): Promise<{ readonly root: string; readonly top: string } | undefined>;
  /** Write an object durably; it need not appear atomically (staged objects, journals' sources). */
  put(key: string, data: Uint8Array | string): Promise<void>;
  /** Write an object that readers may look at: they see the old content or the new, never half. */
  publish(key: string, data: Uint8Array | string): Promise<void>;
  /** Create only if absent (a commit marker, a lock): false when the key already exists. */
  putIfAbsent(key: string, data: Uint8Array | string): Promise<boolean>;
  /** Make the staged object `from` visible as `to`, atomically, durably; `from` is gone afterwards. */
  commit(from: string, to: string): Promise<void>;
  /** The whole object, or undefined when there is none. */
  read(key: string): Promise<Uint8Array | undefined>;
  /** `length` bytes from `offset` (fewer at the end of the object); a footer read needs no more. */
  readRange(key: string, offset: number, length: number): Promise<Uint8Array>;
  /** Size in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  exists(key: string): Promise<boolean>;
  /**
   * When the object was last written (epoch ms; a file's mtime, an object's LastModified, which S3
   * gives to the second), or undefined when there is none: what a retention period (vacuum) is
   * measured against. Optional so a wrapper in a test need not carry it; both backends have it.
   */
  modifiedAt?(key: string): Promise<number | undefined>;
  /**
   * Every key under `prefix` (a key prefix ending in `/`, or '' for all), in no particular order;
   * with `options`, in key order, only the keys after `startAfter` (a whole key, compared as S3
   * does, by bytes), and at most `limit` of them: a Delta log's tail, or whether a folder holds any.
   */
  list(prefix: string, options?: ListOptions): Promise<string[]>;
  /** Remove one object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Remove every object under `prefix` (ending in `/`). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Where a key lives on this machine's file system, for writers that must write a local file
   * themselves (the encode worker pool). Undefined for a remote backend: there, such a writer
   * stages locally and the sink `put`s the bytes.
   */
  localPath(key: string): string | undefined;
}

/** `keys` as `list` answers with options: in byte order (S3's), after `startAfter`, at most `limit`. */
export function inKeyOrder(keys: readonly string[], options: ListOptions): string[] {
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const after = options.startAfter;
  const kept = (after === undefined ? [...keys] : keys.filter((k) => byBytes(k, after) > 0)).sort(byBytes);
  return options.limit === undefined ? kept : kept.slice(0, options.limit);
}
