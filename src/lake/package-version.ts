/** quotelake's version, from package.json (src/lake/ and dist/lake/ both sit two levels below the root). */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const PACKAGE_VERSION = readVersion();

/** The same, as a function (for callers that print it). */
export function packageVersion(): string {
  return PACKAGE_VERSION;
}
