import { join } from 'node:path';

/** A path under `base` of exactly `length` bytes, in folders of at most 200 bytes (NAME_MAX is 255). */
export function pathOf(base: string, length: number): string {
  let path = base;
  while (path.length + 201 < length) path = join(path, 'd'.repeat(200));
  return join(path, 'e'.repeat(length - path.length - 1));
}
