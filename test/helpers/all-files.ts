import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, at any depth, as paths joined to `dir` (folders themselves are not listed). */
export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allFiles(path));
    else out.push(path);
  }
  return out;
}
