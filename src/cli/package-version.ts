import { readFileSync } from 'node:fs';

/** The package version, read from package.json beside src/ or dist/ (two levels up from this file). */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
