/**
 * `sink.output` names the output root as `options.outputDir` does: `run` writes there (its state
 * beside it), `state show` and `compact` find it there, and `--output` still wins. Before, `run`
 * validated the key and then wrote to ./output.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const WINDOW = ['--since', '2026-11-10T00:00:00Z', '--until', '2026-11-10T06:00:00Z', '--clock', '2026-11-12T15:00:00Z'];

const pipeline = (output: string): string =>
  ['name: sink-out', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', `  output: ${output}`, '  maxRowsPerFile: 100', ''].join('\n');

const parquetFiles = (dir: string): string[] =>
  readdirSync(join(dir, 'kline'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.parquet'));

describe('sink.output', () => {
  it('is where run writes and keeps its state, where state show and compact look; --output wins', async () => {
    const cwd = tempDir('ql-sink-output-');
    const lake = join(cwd, 'lake');
    const file = join(cwd, 'sink-out.yaml');
    writeFileSync(file, pipeline(lake));
    const run = await runCli(['run', file, ...WINDOW, '--quiet'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    // 6 hours of 1m bars (the bar at --until included), in files of at most 100 rows.
    const manifest = JSON.parse(readFileSync(join(lake, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { rows: number }[] };
    expect(manifest.files.map((f) => f.rows).reduce((a, b) => a + b, 0)).toBe(361);
    expect(manifest.files.every((f) => f.rows <= 100)).toBe(true);
    expect(existsSync(join(lake, '.state/checkpoints/sink-out.json'))).toBe(true);
    expect(existsSync(join(cwd, 'output'))).toBe(false);

    const state = await runCli(['state', 'show', file, '--json'], { cwd });
    expect(state.code, state.stderr).toBe(0);
    expect((JSON.parse(state.stdout) as { pipelines: { pipeline: string; outputDir: string }[] }).pipelines.map((p) => [p.pipeline, p.outputDir])).toEqual([['sink-out', lake]]);

    // compact with the pipeline: its output and its 100-row files, so nothing to merge.
    const before = parquetFiles(lake).sort();
    const compact = await runCli(['compact', file], { cwd });
    expect(compact.code, compact.stderr).toBe(0);
    expect(compact.stdout.split('\n')[0]).toBe(`sink-out.yaml: kline parquet dataset in ${lake}, files of at most 100 rows, 65,536 held at once`);
    expect(parquetFiles(lake).sort()).toEqual(before);

    const elsewhere = join(cwd, 'elsewhere');
    const flagged = await runCli(['run', file, ...WINDOW, '--output', elsewhere, '--quiet'], { cwd });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(parquetFiles(elsewhere).length).toBeGreaterThan(0);
  }, 60_000);
});
