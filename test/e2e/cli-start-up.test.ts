/**
 * What every command of the built CLI loads before it knows which command runs: `--version`,
 * `--help`, a usage error, and each Tab of shell completion pay for it. The CLI is a bundle
 * (scripts/bundle-cli.mjs); its metafile says which modules went into which file. The files that
 * dist/cli/quotelake.js and the command line it loads (src/cli/main.ts) import statically hold
 * quotelake's own modules, yargs (with the packages it depends on) and two tiny packages of its
 * error messages (colours, did-you-mean): the schema library, time zones, Arrow, HTTP, S3 and the
 * queue load with the command that uses them (a dynamic import, a chunk of its own). Loading zod
 * and luxon here made each Tab 0.2 s instead of 0.13 s.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parquetMetadata } from 'hyparquet';
import { codeHash } from '../../src/lake/build-id.js';
import { MAIN, ROOT, allFiles, runCli, tempDir } from './helpers/cli.js';

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
}

/** Preloaded: every folder the CLI lists is printed on stderr (`listed <path>`). */
const PRINT_FOLDER_LISTINGS = fileURLToPath(new URL('../helpers/print-folder-listings.mjs', import.meta.url));
/** Preloaded: each Intl.Segmenter and Unicode-property RegExp made is printed on stderr (`made ...`). */
const PRINT_SEGMENTERS = fileURLToPath(new URL('../helpers/print-segmenters.mjs', import.meta.url));

const meta = JSON.parse(readFileSync(join(ROOT, 'dist/cli/quotelake.meta.json'), 'utf8')) as Metafile;

/** The package a module path is in, or undefined for one of quotelake's own. */
function packageOf(path: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
}

/** Every package the bundle file `entry` reaches through static imports: bundled into those files, or imported from node_modules. */
function packagesReached(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const output = meta.outputs[file];
    if (output === undefined) throw new Error(`${file} is not in the bundle's metafile`);
    for (const input of Object.keys(output.inputs)) {
      const name = packageOf(input);
      if (name !== undefined) packages.add(name);
    }
    for (const { path, kind, external } of output.imports) {
      if (kind !== 'import-statement') continue;
      if (!external) todo.push(path);
      else if (!path.startsWith('node:') && !builtinModules.includes(path)) packages.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);
    }
  }
  return packages;
}

/** The package root without its trailing slash, as dirname() gives folders. */
const TOP = ROOT.replace(/\/$/, '');

/** The names of a package and of every package it depends on, found as Node finds them (nested node_modules first). */
function dependencyTree(name: string, from = TOP, names = new Set<string>(), homes = new Set<string>()): Set<string> {
  for (let dir = from; dir.startsWith(TOP); dir = dirname(dir)) {
    const home = join(dir, 'node_modules', name);
    if (!existsSync(join(home, 'package.json'))) continue;
    if (homes.has(home)) return names;
    homes.add(home);
    names.add(name);
    const pkg = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) dependencyTree(dep, home, names, homes);
    return names;
  }
  return names;
}

/** The bundle file that holds `input` (a path from the package root). */
function outputHolding(input: string): string {
  const found = Object.entries(meta.outputs).find(([file, o]) => file.endsWith('.js') && input in o.inputs);
  if (found === undefined) throw new Error(`${input} is in no bundle file`);
  return found[0];
}

describe("the CLI's start-up", () => {
  it('is the bundle the package installs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(ROOT, pkg.bin.quotelake!)).toBe(MAIN);
    expect(readFileSync(MAIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('reaches yargs, colours and did-you-mean only, before a command runs', () => {
    // The entry makes the process-wide settings, then imports the command line (src/cli/bin.ts).
    const reached = new Set([...packagesReached('dist/cli/quotelake.js'), ...packagesReached(outputHolding('dist/cli/main.js'))]);
    const allowed = new Set([...dependencyTree('yargs'), 'picocolors', 'fastest-levenshtein']);
    expect([...reached].filter((name) => !allowed.has(name))).toEqual([]);
    expect(reached.has('yargs')).toBe(true);
  });

  it('lists no folder outside the package (bundled, yargs looked for package.json upwards from the current folder)', async () => {
    const cwd = join(tempDir('ql-start-up-'), 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    const result = await runCli(['--version'], { cwd, env: { NODE_OPTIONS: `--import=${PRINT_FOLDER_LISTINGS}` } });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const listed = [...result.stderr.matchAll(/^listed (.*)$/gm)].map((m) => m[1]!);
    // The hook does see listings: yargs' one look, in the package root.
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((path) => !`${path}/`.startsWith(ROOT))).toEqual([]);
  });

  it("makes string-width's Segmenter and Unicode regular expressions only when a width is measured (scripts/lazy-string-width.mjs)", async () => {
    const env = { NODE_OPTIONS: `--import=${PRINT_SEGMENTERS}` };
    const version = await runCli(['--version'], { env });
    expect(version.code).toBe(0);
    expect(version.stderr).toBe('');
    const usageError = await runCli(['run', '--no-such-flag'], { env });
    expect(usageError.code).toBe(2);
    expect(usageError.stderr).not.toMatch(/^made /m);
    // Help lays out columns by width: the deferred values are made then, and the layout is as before.
    const help = await runCli(['run', '--help'], { env });
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/^made segmenter$/m);
    expect(help.stdout).toMatch(/^ {6}--base-url {2,}Service root URL/m);
  });

  it('reads the build id the bundle script recorded: a run lists no folder of the bundle, and its Parquet names that id', async () => {
    const recorded = readFileSync(join(ROOT, 'dist/cli/build-id.txt'), 'utf8').trim();
    expect(recorded).toBe(codeHash(join(ROOT, 'dist/cli'), '.js', false));
    const out = tempDir('ql-build-id-');
    const env = { NODE_OPTIONS: `--import=${PRINT_FOLDER_LISTINGS}` };
    const result = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', out, '--clock', '2026-11-20T00:00:00Z'], { env });
    expect(result.code, result.stderr).toBe(0);
    // Hashing the files (src/lake/build-id.ts) lists dist/cli/ first.
    expect(result.stderr).not.toMatch(/^listed .*dist\/cli/m);
    const parquet = allFiles(out).filter((f) => f.endsWith('.parquet') && !f.includes('/_'));
    expect(parquet.length).toBeGreaterThan(0);
    const bytes = readFileSync(parquet[0]!);
    const footer = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(footer.created_by).toMatch(new RegExp(`^quotelake version \\S+ \\(build ${recorded}\\)$`));
  });

  it('the walk finds what a command module does import (it would see a static zod)', () => {
    // The parser of pipeline files is loaded by `run`, `validate`... through a dynamic import.
    const reached = packagesReached(outputHolding('dist/config/parse-pipeline.js'));
    expect(reached.has('zod')).toBe(true);
    expect(reached.has('yaml')).toBe(true);
  });
});
