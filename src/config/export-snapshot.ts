/**
 * A pipeline module's default export copied into plain data before it is validated. Its plain
 * objects and lists are read here, each property once: a getter or a Proxy of the module that
 * throws (`get until() { throw ... }`, a settings object that insists on an environment variable)
 * is a problem of that file at the key it guards, where validation once crashed with it as a bug of
 * ours (exit 1, a stack trace). Other values (a Date, a Set, a function) are kept as they are, so
 * validation names them as before.
 */
import { thrownText } from './module-export.js';

export interface SnapshotFailure {
  /** Where the value that threw sits, as validation messages write it (`source.until`). */
  readonly path: string;
  readonly message: string;
}

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

function pathText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The copy, or where reading it threw. Shared and cyclic parts stay shared and cyclic. */
export function snapshotExport(value: unknown): { value: unknown } | { failure: SnapshotFailure } {
  const copies = new Map<object, unknown>();
  const copy = (v: unknown, path: (string | number)[]): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const seen = copies.get(v);
    if (seen !== undefined) return seen;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      copies.set(v, out);
      for (let i = 0; i < v.length; i++) out.push(copy(read(v, i, path), [...path, i]));
      return out;
    }
    if (!isPlain(v)) return v;
    const out: Record<string, unknown> = {};
    copies.set(v, out);
    for (const key of keysOf(v, path)) out[key] = copy(read(v, key, path), [...path, key]);
    return out;
  };
  try {
    return { value: copy(value, []) };
  } catch (e) {
    if (e instanceof ReadFailure) return { failure: { path: e.path, message: e.message } };
    throw e;
  }
}

class ReadFailure extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function keysOf(v: object, path: (string | number)[]): string[] {
  try {
    return Object.keys(v);
  } catch (e) {
    throw new ReadFailure(pathText(path), thrownText(e));
  }
}

function read(v: object, key: string | number, path: (string | number)[]): unknown {
  try {
    return (v as Record<string | number, unknown>)[key];
  } catch (e) {
    throw new ReadFailure(pathText([...path, key]), thrownText(e));
  }
}
