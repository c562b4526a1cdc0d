/** The one guard for file names built from input: hostile values never land outside their root. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confineName, confinePath, MAX_SEGMENT_BYTES, pathProblem } from '../../src/core/confine-path.js';
import { PathOutsideRootError } from '../../src/core/errors.js';

const HOSTILE = ['..', '../x', '/etc/x', 'sub/../../x', 'a/../..', '\0', 'x\0.json', 'a\\..\\..\\x', 'C:/x', '.', 'sub/..', '', 'x'.repeat(MAX_SEGMENT_BYTES + 1), `ok/${'é'.repeat(128)}`];

describe('pathProblem / confinePath', () => {
  const root = '/srv/lake';

  it.each(HOSTILE)('refuses %j', (value) => {
    expect(pathProblem(value)).toBeDefined();
    expect(() => confinePath(root, value, 'ndjson sink path')).toThrow(PathOutsideRootError);
  });

  it('the error names the value, the root and what is wrong, with a stable code', () => {
    expect(() => confinePath(root, '../x', 'ndjson sink path')).toThrow(
      expect.objectContaining({ code: 'QL_PATH_OUTSIDE_ROOT', message: 'ndjson sink path "../x" leads out of the folder (..): it must name a file inside /srv/lake' }),
    );
  });

  it.each(['x.ndjson', 'exports/kline.ndjson', 'sub/../x', '%2e%2e/x', '%2E%2E', '..x', 'x..', '...', 'a/b/c/'.repeat(20) + 'x', 'é'.repeat(127)])('allows %j, inside the root', (value) => {
    expect(pathProblem(value)).toBeUndefined();
    expect(confinePath(root, value).startsWith(root + sep)).toBe(true);
  });

  it('a percent-encoded dot is a plain name, not a way out', () => {
    expect(confinePath(root, '%2e%2e/x')).toBe('/srv/lake/%2e%2e/x');
  });

  it('confineName takes one name only', () => {
    expect(confineName(root, 'p.json')).toBe('/srv/lake/p.json');
    for (const bad of ['a/b.json', '..', '.', '../p.json', '', 'p\0.json', 'x'.repeat(300)]) expect(() => confineName(root, bad)).toThrow(PathOutsideRootError);
  });

  it('resolves against the real root, relative or not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-confine-'));
    expect(confinePath(dir, 'a/b')).toBe(join(dir, 'a/b'));
    expect(confinePath(`${dir}/`, 'a')).toBe(join(dir, 'a'));
    expect(() => confinePath(dir, `../${dir.split(sep).at(-1)}x/y`)).toThrow(PathOutsideRootError);
  });
});
