/**
 * `quotelake inspect` of an output whose pipelines write NDJSON files (an ndjson sink with a file
 * path): those files are no lake dataset, so inspect does not read them, but it names them rather
 * than saying "no datasets" as of an empty output. Exit 0: nothing is wrong with such an output.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const NO_LAKE = '  no lake datasets (no manifest under _quotelake/manifests/ for kline, trade, depth or halt)';

/** Runs a trade snapshot into `output` through an ndjson sink at `path`, against the built-in emulator. */
async function runNdjson(dir: string, output: string, path: string, name = 'books'): Promise<void> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT, ETHUSDT]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: ndjson', `  path: ${path}`, ''].join('\n'));
  const r = await runCli(['run', file, '--output', output, '--clock', NOW, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}

describe.concurrent('inspect of an output holding NDJSON files', () => {
  it('names the NDJSON files (text and --json), says they are no lake dataset, exit 0', async () => {
    const dir = tempDir();
    const output = join(dir, 'out');
    await runNdjson(dir, output, 'exports/{dataset}.ndjson');
    const bytes = statSync(join(output, 'exports/trade.ndjson')).size;

    const text = await runCli(['inspect', output, '--runs', '0']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(
      `quotelake: ${output}\n${NO_LAKE}\n` +
        `  1 NDJSON file, not a lake dataset (an ndjson sink's; inspect reads and checks only the lake's datasets): exports/trade.ndjson (${bytes} B)\n`,
    );
    expect(text.stdout).not.toContain('  no datasets');

    const json = await runCli(['inspect', output, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { datasets: unknown[]; ndjsonFiles: unknown[]; runs: { pipeline: string }[] };
    expect(doc.datasets).toEqual([]);
    expect(doc.ndjsonFiles).toEqual([{ path: 'exports/trade.ndjson', bytes }]);
    expect(doc.runs.map((r) => r.pipeline)).toEqual(['books']);
  });

  it('a sink file not named *.ndjson is found as the runs recorded it; files in the lake\'s own places are not named', async () => {
    const dir = tempDir();
    const output = join(dir, 'out');
    await runNdjson(dir, output, 'exports/{dataset}.json');
    // Hidden, or in the lake's places: no sink writes there, so these are not an ndjson sink's.
    mkdirSync(join(output, '_quotelake'), { recursive: true });
    writeFileSync(join(output, '_quotelake', 'x.ndjson'), '{}\n');
    writeFileSync(join(output, 'exports', '.trade.json.tmp-1'), '{}\n');
    const bytes = statSync(join(output, 'exports/trade.json')).size;
    const json = await runCli(['inspect', output, '--json', '--runs', '0']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { ndjsonFiles: unknown[] }).ndjsonFiles).toEqual([{ path: 'exports/trade.json', bytes }]);
  });

  it('two NDJSON files: both named, sorted, the count in the plural', async () => {
    const dir = tempDir();
    const output = join(dir, 'out');
    await runNdjson(dir, output, 'exports/{dataset}.ndjson');
    await runNdjson(dir, output, 'more/{dataset}.ndjson', 'more');
    const a = statSync(join(output, 'exports/trade.ndjson')).size;
    const b = statSync(join(output, 'more/trade.ndjson')).size;
    const text = await runCli(['inspect', output, '--runs', '0']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`  2 NDJSON files, not lake datasets (an ndjson sink's; inspect reads and checks only the lake's datasets): exports/trade.ndjson (${a} B), more/trade.ndjson (${b} B)\n`);
  });

  it('an output folder holding nothing: "no datasets" as before', async () => {
    const output = tempDir();
    const text = await runCli(['inspect', output, '--runs', '0']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`quotelake: ${output}\n  no datasets (no manifest under _quotelake/manifests/ for kline, trade, depth or halt)\n`);
  });
});
