/** `quotelake compact` through the built CLI: --dry-run changes nothing, then it compacts, and it respects the output lock. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { acquireOutputLock } from '../../src/runtime/output-lock.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext } from '../sinks/helpers.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

/** An exit code and the first line of stderr. */
const inspectSays = (r: { code: number | null; stderr: string }) => [r.code, r.stderr.split('\n')[0]];

/** Three runs of 100 minutes of two codes, committed with a 50-row target: 12 files of 50 rows in one partition (Parquet, or Arrow). */
async function smallFileLake(out = tempDir(), encoder = parquetEncoder({ rowGroupRows: 131072 })): Promise<string> {
  for (let run = 0; run < 3; run++) {
    const sink = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder, decimal: DEFAULT_DECIMAL, maxRowsPerFile: 50, maxBufferedRows: 100_000, maxBufferedBytes: 1 << 30 });
    const ctx = { ...runContext(`r${run}`), clock: new ManualClock('2026-11-21T14:30:00Z') };
    const raw = [];
    for (const code of ['BTCUSDT', 'ETHUSDT']) for (let m = run * 100; m < run * 100 + 100; m++) raw.push(rawKline(code, '1m', T0 + 60 * m, `${m}`));
    await sink.write({ stream: 'k', seq: 1, records: klineRows(raw) }, ctx);
    await sink.commit(ctx);
    await sink.close();
  }
  return out;
}

/**
 * `days` partitions (one a day) of 300 rows in 6 files each: three runs of 50 minutes of two codes
 * a day, committed with a 50-row target. `quotelake compact` makes each one file.
 */
async function manyPartitionLake(days: number): Promise<string> {
  const out = tempDir();
  for (let run = 0; run < 3; run++) {
    const sink = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 50, maxBufferedRows: 1_000_000, maxBufferedBytes: 1 << 30 });
    const ctx = { ...runContext(`r${run}`), clock: new ManualClock('2026-11-21T14:30:00Z') };
    const raw = [];
    for (let d = 0; d < days; d++) for (const code of ['BTCUSDT', 'ETHUSDT']) for (let m = run * 50; m < run * 50 + 50; m++) raw.push(rawKline(code, '1m', T0 + 86_400 * d + 60 * m, `${m}`));
    await sink.write({ stream: 'k', seq: 1, records: klineRows(raw) }, ctx);
    await sink.commit(ctx);
    await sink.close();
  }
  return out;
}

/** The head of a K-line pipeline of the two codes the lakes here hold (its sink follows). */
const pipelineHead = (name: string): string[] => [
  `name: ${name}`,
  'source:',
  '  type: kline-history',
  '  codes: [BTCUSDT, ETHUSDT]',
  '  intervals: [1m]',
  '  since: 7d',
  'transforms:',
  '  - type: parse-decimals',
];

interface ManifestView {
  files: { path: string; rows: number }[];
  retired: unknown[];
}

/** The manifest, after checking that it and the disk agree: every listed file exists, no other part file, no staging left. */
function consistentManifest(out: string): ManifestView {
  const manifest = JSON.parse(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as ManifestView;
  const onDisk = readdirSync(join(out, 'kline'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.parquet'))
    .sort();
  expect(onDisk).toEqual(manifest.files.map((f) => f.path).sort());
  expect(readdirSync(join(out, 'kline'), { recursive: true }).map(String).filter((f) => /\.tmp|tmp-/.test(f))).toEqual([]);
  const staging = join(out, '_quotelake/staging');
  expect(existsSync(staging) ? readdirSync(staging, { recursive: true }) : []).toEqual([]);
  return manifest;
}

const filesPerPartition = (m: ManifestView) => {
  const counts = new Map<string, number>();
  for (const f of m.files) counts.set(f.path.split('/').slice(0, -1).join('/'), (counts.get(f.path.split('/').slice(0, -1).join('/')) ?? 0) + 1);
  return [...counts.values()];
};

const tree = (out: string) => JSON.stringify([readdirSync(out, { recursive: true }).sort(), readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')]);

describe('quotelake compact', () => {
  it('--dry-run prints the plan and changes nothing; then compacts to one file', async () => {
    const out = await smallFileLake();
    const before = tree(out);
    const plan = await runCli(['compact', '--output', out, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^kline\.parquet: 12 → 1 file, 600 rows in 1 partition \(would compact 1\); [\d.]+ KiB → ~[\d.]+ KiB; would delete 0 retired files past the grace\n$/);
    expect(tree(out)).toBe(before);
    const done = await runCli(['compact', '--output', out, '--dataset', 'kline', '--grace', '0']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^kline\.parquet: 12 → 1 file, 600 rows in 1 partition \(compacted 1\)/);
    const manifest = JSON.parse(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { rows: number }[]; retired: unknown[] };
    expect(manifest.files.map((f) => f.rows)).toEqual([600]);
    // --grace 0: the replaced files went with the commit that replaced them.
    expect(manifest.retired).toEqual([]);
    expect(readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['_quotelake', 'kline']);
  }, 60_000);

  it("--max-rows-per-file and --max-buffered-rows bound the files as a pipeline's sink settings do; a bad value is exit 2 before the lake is touched", async () => {
    const out = await smallFileLake();
    const before = tree(out);
    const bad = await Promise.all(
      [
        ['--max-rows-per-file', '0'],
        ['--max-rows-per-file', '1.5'],
        ['--max-buffered-rows', 'many'],
      ].map((flag) => runCli(['compact', '--output', out, ...flag])),
    );
    expect(bad.map((r) => [r.code, r.stdout, r.stderr.split('\n')[0]])).toEqual([
      [2, '', 'quotelake: --max-rows-per-file must be a whole number of rows, 1 or more, got 0'],
      [2, '', 'quotelake: --max-rows-per-file must be a whole number of rows, 1 or more, got 1.5'],
      [2, '', 'quotelake: --max-buffered-rows must be a number, got "many"'],
    ]);
    expect(tree(out)).toBe(before);
    // 600 rows in 12 files of 50: files of at most 200 rows make 3.
    const bounded = await runCli(['compact', '--output', out, '--grace', '0', '--max-rows-per-file', '200']);
    expect(bounded.code, bounded.stderr).toBe(0);
    expect(bounded.stdout).toMatch(/^kline\.parquet: 12 → 3 files, 600 rows in 1 partition \(compacted 1\)/);
    expect(consistentManifest(out).files.map((f) => f.rows)).toEqual([200, 200, 200]);
    // The same bound again: already within it, nothing to do.
    const again = await runCli(['compact', '--output', out, '--grace', '0', '--max-rows-per-file', '200']);
    expect(again.stdout).toMatch(/^kline\.parquet: 3 → 3 files, 600 rows in 1 partition \(compacted 0\)/);
    // A compaction holds no more rows at once than --max-buffered-rows, so its target is 100 rows: 600
    // rows may then take 6 files, and 3 are within that, so nothing is rewritten.
    const buffered = await runCli(['compact', '--output', out, '--grace', '0', '--max-buffered-rows', '100']);
    expect(buffered.code, buffered.stderr).toBe(0);
    expect(consistentManifest(out).files.map((f) => f.rows)).toEqual([200, 200, 200]);
    // The defaults (1,000,000 rows a file): one file.
    const whole = await runCli(['compact', '--output', out, '--grace', '0']);
    expect(whole.stdout).toMatch(/^kline\.parquet: 3 → 1 file, 600 rows in 1 partition \(compacted 1\)/);
    expect(consistentManifest(out).files.map((f) => f.rows)).toEqual([600]);
  }, 60_000);

  it("a pipeline argument takes its output, its dataset and format, and its sink's file bounds; a flag given wins", async () => {
    const out = await smallFileLake();
    const dir = tempDir();
    const file = join(dir, 'kline-200.yaml');
    const sink = ['sink:', '  type: parquet', `  output: ${out}`, '  maxRowsPerFile: 200', '  retiredGraceMs: 0'];
    writeFileSync(file, [...pipelineHead('kline-200'), ...sink, ''].join('\n'));
    // An Arrow table of the same dataset beside it: the pipeline writes Parquet, so it is not touched.
    await smallFileLake(out, arrowEncoder());
    const arrow = () => readFileSync(join(out, '_quotelake/manifests/kline.arrow.json'), 'utf8');
    const arrowBefore = arrow();
    const before = readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8');
    const dry = await runCli(['compact', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n').slice(0, 2)).toEqual([
      `${file}: kline parquet dataset in ${out}, files of at most 200 rows, 65,536 held at once`,
      expect.stringMatching(/^kline\.parquet: 12 → 3 files, 600 rows in 1 partition \(would compact 1\)/),
    ]);
    expect(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')).toBe(before);
    const r = await runCli(['compact', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^kline\.parquet: 12 → 3 files, 600 rows in 1 partition \(compacted 1\); .*; deleted 0 retired files past the grace/);
    // The sink's retiredGraceMs 0: the replaced files went with the commit that replaced them.
    const m = consistentManifest(out);
    expect([m.files.map((f) => f.rows), m.retired]).toEqual([[200, 200, 200], []]);
    // A flag given wins over the sink's value.
    const wider = await runCli(['compact', file, '--max-rows-per-file', '300']);
    expect(wider.code, wider.stderr).toBe(0);
    expect(wider.stdout.split('\n')[0]).toBe(`${file}: kline parquet dataset in ${out}, files of at most 300 rows, 65,536 held at once`);
    expect(consistentManifest(out).files.map((f) => f.rows)).toEqual([300, 300]);
    expect(wider.stdout).not.toContain('kline.arrow');
    expect(arrow()).toBe(arrowBefore);
    expect((JSON.parse(arrowBefore) as ManifestView).files).toHaveLength(12);
  }, 60_000);

  it('a pipeline that writes no lake table, names another dataset than --dataset, or does not parse is exit 2 before the lake is touched', async () => {
    const out = await smallFileLake();
    const before = tree(out);
    const dir = tempDir();
    const ndjson = join(dir, 'to-ndjson.yaml');
    writeFileSync(ndjson, [...pipelineHead('to-ndjson'), 'sink:', '  type: ndjson', `  output: ${out}`, ''].join('\n'));
    const parquet = join(dir, 'to-parquet.yaml');
    writeFileSync(parquet, [...pipelineHead('to-parquet'), 'sink:', '  type: parquet', `  output: ${out}`, ''].join('\n'));
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, [...pipelineHead('broken'), 'sink:', '  type: parquet', '  maxRowsPerFile: lots', ''].join('\n'));
    const said = await Promise.all([runCli(['compact', ndjson]), runCli(['compact', parquet, '--dataset', 'trade']), runCli(['compact', broken])]);
    expect(said.map((r) => [r.code, r.stdout, r.stderr.split('\n')[0]])).toEqual([
      [2, '', `quotelake: pipeline ${ndjson} writes with the ndjson sink: compact works on the Parquet and Arrow tables of a lake`],
      [2, '', `quotelake: --dataset trade: pipeline ${parquet} writes the kline dataset`],
      [2, '', expect.stringContaining(`${broken}:`)],
    ]);
    expect(said[2]!.stderr).toMatch(/maxRowsPerFile/);
    expect(tree(out)).toBe(before);
  }, 60_000);

  it('--max-buffered-rows alone makes files of that many rows from small ones', async () => {
    const out = await smallFileLake();
    const r = await runCli(['compact', '--output', out, '--grace', '0', '--max-buffered-rows', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^kline\.parquet: 12 → 6 files, 600 rows in 1 partition \(compacted 1\)/);
    expect(consistentManifest(out).files.map((f) => f.rows)).toEqual([100, 100, 100, 100, 100, 100]);
  }, 60_000);

  it('fails while a run holds the output, and names an unknown dataset', async () => {
    const out = await smallFileLake();
    const lock = await acquireOutputLock(out, { runId: 'other', pipeline: 'busy', now: new Date('2026-11-21T14:30:00Z') });
    try {
      const r = await runCli(['compact', '--output', out]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('in use by run other of pipeline busy');
    } finally {
      await lock.release();
    }
    const bad = await runCli(['compact', '--output', out, '--dataset', 'candles']);
    // A usage error (exit 2), refused before the lake is touched, with the datasets there are.
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Argument: dataset, Given: "candles", Choices: "kline", "trade", "depth", "halt"');
  }, 60_000);

  it('compact, vacuum, repair and migrate on a folder that does not exist, dry run or not, refuse it as inspect does (exit 2) and make no folder', async () => {
    // A typo in a cron line: exit 0 ("nothing to compact") would hide it for good.
    const missing = join(tempDir(), 'lake-typo');
    const commands = [['compact'], ['compact', '--dry-run'], ['vacuum'], ['vacuum', '--dry-run'], ['repair', '--yes'], ['repair', '--dry-run'], ['migrate'], ['migrate', '--dry-run']];
    const said = await Promise.all(commands.map((c) => runCli([...c, '--output', missing])));
    const refusal = [`quotelake: --output ${missing} does not exist (no run has written there)`, '  hint: give the output folder of a run (default output)'];
    expect(said.map((r) => [r.code, r.stdout, r.stderr.split('\n').slice(0, 2)])).toEqual(commands.map(() => [2, '', refusal]));
    // With --json, the refusal is the document.
    const json = await Promise.all([['repair', '--dry-run', '--json'], ['migrate', '--json']].map((c) => runCli([...c, '--output', missing])));
    for (const r of json) expect([r.code, JSON.parse(r.stdout)]).toMatchObject([2, { exitCode: 2, error: { code: 'QL_USAGE', message: `--output ${missing} does not exist (no run has written there)` } }]);
    expect(inspectSays(await runCli(['inspect', missing]))).toEqual([2, `quotelake: ${missing} does not exist (no run has written there)`]);
    expect(existsSync(missing)).toBe(false);
  }, 60_000);

  it('compact, vacuum, repair and migrate on a file, dry run or not, refuse it as an output folder (exit 2)', async () => {
    const file = join(tempDir(), 'lake.parquet');
    writeFileSync(file, 'not a lake');
    const commands = [['compact'], ['compact', '--dry-run'], ['vacuum', '--dry-run'], ['repair', '--dry-run'], ['migrate', '--dry-run']];
    const said = await Promise.all(commands.map((c) => runCli([...c, '--output', file])));
    expect(said.map((r) => [r.code, r.stdout, r.stderr.split('\n')[0]])).toEqual(commands.map(() => [2, '', `quotelake: --output ${file} is a file, not an output folder`]));
  }, 60_000);

  it('SIGTERM stops it between partitions: exit 130, the partitions done are committed, the lake consistent; the next compact does the rest', async () => {
    const days = 120;
    const out = await manyPartitionLake(days);
    expect(filesPerPartition(consistentManifest(out))).toEqual(Array.from({ length: days }, () => 6));
    const proc = startCli(['compact', '--output', out, '--grace', '0', '--log-level', 'debug', '--log-format', 'json']);
    // The first partition compacted (staged, not yet committed): stop now.
    await proc.waitForStderr(/"event":"compaction"/);
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toMatch(/^kline\.parquet: \d+ → \d+ files, 36,000 rows in 120 partitions \(compacted \d+\);.*; stopped by a signal: the other partitions are left as they were\n$/);
    // JSON logs: every stderr line is one, the signal's notices included.
    const lines = r.stderr.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.event === 'signal').map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'SIGTERM: stopping after the current partition and committing what is compacted (send it again to quit at once)'],
      ['warn', 'SIGTERM: compact stopped; the partitions it finished are committed; run it again for the rest'],
    ]);
    const commit = lines.find((l) => l.event === 'commit')!;
    expect(commit).toMatchObject({ level: 'info', msg: 'compacted', command: 'compact', operation: 'compact', dataset: 'kline', format: 'parquet', stopped: true });
    expect(commit.runId).toMatch(/^compact-/);
    const stopped = consistentManifest(out);
    const done = filesPerPartition(stopped).filter((n) => n === 1).length;
    expect(done).toBe(commit.partitions);
    expect(done).toBeGreaterThanOrEqual(1);
    // Stopped part-way: the partitions after the signal are as they were.
    expect(done).toBeLessThan(days);
    expect(filesPerPartition(stopped).filter((n) => n !== 1).every((n) => n === 6)).toBe(true);
    expect(stopped.files.reduce((n, f) => n + f.rows, 0)).toBe(days * 300);

    const rest = await runCli(['compact', '--output', out, '--grace', '0', '--log-level', 'info']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/INFO: compacted \{"command":"compact","event":"commit","operation":"compact","dataset":"kline","format":"parquet","partitions":\d+,"files":\d+,"retired":\d+,"rows":\d+,"bytes":\d+\}\n/);
    const after = consistentManifest(out);
    expect(filesPerPartition(after)).toEqual(Array.from({ length: days }, () => 1));
    expect(after.files.reduce((n, f) => n + f.rows, 0)).toBe(days * 300);
  }, 120_000);
});
