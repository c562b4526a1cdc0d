/**
 * The URL a worker thread can load for a module of this package. A worker runs plain JavaScript
 * only: from dist/ a module's URL is already that; when this code runs from its TypeScript sources
 * (vitest imports src/*.ts), the module's compiled twin under dist/ is used instead (the test
 * setup builds dist/ whenever src/ is newer).
 */
const here = import.meta.url;
// This file is src/lake/encode/compiled-url.ts, or dist/lake/encode/compiled-url.js once built.
const srcRoot = new URL('../../', here);
const distRoot = new URL('../../../dist/', here);

/** `url`: a `.js` module URL relative to the caller, e.g. `new URL('./worker.js', import.meta.url)`. */
export function compiledUrl(url: URL): URL {
  if (!here.endsWith('.ts') || !url.href.startsWith(srcRoot.href)) return url;
  return new URL(url.href.slice(srcRoot.href.length), distRoot);
}
