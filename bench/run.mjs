#!/usr/bin/env node
// Runs every bench/*.bench.mjs (or those named on the command line), prints their figures and
// writes them to bench/results/latest.json as [{ name, value, unit, target }] (decisions I6).
// Benchmarks report; they never fail on a missed target.
import { readdir, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

// A name that matches no benchmark (a typo) is refused before anything runs: it would otherwise
// run nothing, exit 0 and replace bench/results/latest.json with an empty list.
const unknown = wanted.filter((w) => !files.some((f) => f.startsWith(w)));
if (unknown.length > 0) {
  const names = (await readdir(here)).filter((f) => f.endsWith('.bench.mjs')).map((f) => f.slice(0, -'.bench.mjs'.length)).sort();
  process.stderr.write(`bench: no benchmark's file name starts with ${unknown.map((w) => JSON.stringify(w)).join(', ')}; the benchmarks: ${names.join(', ')}\n`);
  process.exit(2);
}

// Every chosen benchmark is loaded before the first runs: a module checks its environment settings
// as it loads, and a wrong one is refused (exit 2) before anything runs or latest.json changes.
const modules = [];
for (const file of files) {
  try {
    modules.push({ file, mod: await import(pathToFileURL(join(here, file)).href) });
  } catch (error) {
    if (error?.name !== 'BenchSettingError') throw error;
    process.stderr.write(`bench: ${file}: ${error.message}\n`);
    process.exit(2);
  }
}

const results = [];
for (const { file, mod } of modules) {
  process.stderr.write(`bench: ${file} ...\n`);
  const started = Date.now();
  const figures = await mod.run();
  for (const figure of figures) {
    results.push(figure);
    const target = figure.target === null || figure.target === undefined ? '' : `  (target ${figure.target})`;
    process.stdout.write(`${figure.name.padEnd(58)} ${formatValue(figure.value).padStart(14)} ${figure.unit}${target}\n`);
  }
  process.stderr.write(`bench: ${file} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const out = join(here, 'results', 'latest.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
process.stderr.write(`bench: wrote ${results.length} figures to bench/results/latest.json\n`);

function formatValue(value) {
  if (typeof value !== 'number') return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
}
