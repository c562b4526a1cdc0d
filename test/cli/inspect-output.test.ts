import { rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inspectOutput } from '../../src/cli/inspect/inspect-output.js';
import { inspectProgress } from '../../src/cli/inspect/inspect-progress.js';
import { renderInspect } from '../../src/cli/inspect/render-inspect.js';
import { createTerminal } from '../../src/cli/terminal.js';
import { lakeDataset } from '../../src/lake/reader/index.js';
import { tempDir } from '../sinks/helpers.js';
import { wholeFileTruth, writeLake } from '../lake/reader/lake-fixture.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('inspect over a multi-file lake', () => {
  it.each(['parquet', 'arrow'] as const)('%s: footers give the same rows, series and first/last as decoding every whole file', async (format) => {
    const out = await tempDir();
    await writeLake(out, format);
    const truth = await wholeFileTruth(out, format);
    const calls: number[] = [];
    const info = await inspectOutput(out, join(out, '.state'), 5, (done) => calls.push(done));
    expect(info.datasets).toHaveLength(1);
    const kline = info.datasets[0]!;
    expect(kline).toMatchObject({ dataset: 'kline', format, rows: truth.rows, problems: [] });
    expect(kline.series).toEqual(
      Object.entries(truth.series)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([series, s]) => ({ series, rows: s.rows, first: iso(s.first), last: iso(s.last) })),
    );
    expect(calls).toEqual(Array.from({ length: kline.files }, (_, i) => i + 1));
  });

  it('a missing file is a listed problem, not a crash', async () => {
    const out = await tempDir();
    await writeLake(out, 'parquet');
    const files = (await lakeDataset(out, 'kline', 'parquet'))!.files;
    const gone = files[1]!;
    await rm(gone.absPath);
    const info = await inspectOutput(out, join(out, '.state'));
    expect(info.datasets[0]!.problems).toEqual([`kline/${gone.path}: listed in the manifest but missing`]);
    expect(info.datasets[0]!.rows).toBe(files.filter((f) => f !== gone).reduce((a, f) => a + f.listed.rows, 0));
    // The file count is the manifest's; the line says how many of them its rows and bytes leave out.
    expect(info.datasets[0]).toMatchObject({ files: files.length, unreadable: 1 });
    const line = renderInspect(info).split('\n')[1]!;
    expect(line).toContain(`rows in ${files.length} files (1 missing or unreadable, not counted), `);
  });

  it('a truncated file is counted as unreadable, and a whole lake says nothing of the kind', async () => {
    const out = await tempDir();
    await writeLake(out, 'parquet');
    expect(renderInspect(await inspectOutput(out, join(out, '.state')))).not.toContain('unreadable');
    const files = (await lakeDataset(out, 'kline', 'parquet'))!.files;
    await truncate(files[0]!.absPath, 100);
    const info = await inspectOutput(out, join(out, '.state'));
    expect(info.datasets[0]).toMatchObject({ files: files.length, unreadable: 1 });
    expect(info.datasets[0]!.rows).toBe(files.slice(1).reduce((a, f) => a + f.listed.rows, 0));
    expect(renderInspect(info)).toContain('(1 missing or unreadable, not counted)');
  });

  it('draws a progress bar on a terminal only, and never for --json', () => {
    const tty = createTerminal({ stdout: new PassThrough(), stderr: new PassThrough(), stderrIsTTY: true });
    const pipe = createTerminal({ stdout: new PassThrough(), stderr: new PassThrough(), stderrIsTTY: false });
    expect(inspectProgress(tty, true).onProgress).toBeTypeOf('function');
    expect(inspectProgress(tty, false).onProgress).toBeUndefined();
    expect(inspectProgress(pipe, true).onProgress).toBeUndefined();
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (c: Buffer) => (text += c.toString()));
    const p = inspectProgress(createTerminal({ stdout: new PassThrough(), stderr, stderrIsTTY: true }), true);
    p.onProgress!(1, 3);
    p.onProgress!(3, 3);
    p.stop();
    expect(text).toContain('files');
  });
});

describe("inspect's last runs", () => {
  const run = (status: string, counts: { received: number; written: number; merged?: number; rejected?: number }) => ({
    runId: `run-${status}`,
    pipeline: 'p',
    status,
    startedAt: '2026-11-22T00:00:00.000Z',
    requests: 42,
    rowsReceived: counts.received,
    rowsWritten: counts.written,
    rowsMerged: counts.merged ?? 0,
    files: counts.written > 0 ? 1 : 0,
    rejected: counts.rejected ?? 0,
  });
  const lines = (runs: ReturnType<typeof run>[]) =>
    renderInspect({ output: 'out', stateDir: 'out/.state', datasets: [], pendingCommits: [], rejectedFiles: 0, runs, damagedRunRecords: [], ndjsonFiles: [] }).split('\n').filter((l) => l.includes('  p  '));

  it('say what a killed or running run fetched and did not commit, and nothing of the kind for a run that succeeded', () => {
    expect(
      lines([
        run('interrupted', { received: 21_000, written: 0 }),
        run('running', { received: 1_500, written: 1_000, merged: 200, rejected: 100 }),
        run('failed', { received: 10, written: 8, rejected: 2 }),
        // A transform of the user's may drop rows: a run that succeeded committed all it kept.
        run('succeeded', { received: 600, written: 500 }),
      ]),
    ).toEqual([
      '    2026-11-22T00:00:00.000Z  p  interrupted  42 requests, 0 rows, 0 files, 21,000 received not committed',
      '    2026-11-22T00:00:00.000Z  p  running  42 requests, 1,000 rows (+ 200 merged), 1 file, 100 rejected, 200 received not committed',
      '    2026-11-22T00:00:00.000Z  p  failed  42 requests, 8 rows, 1 file, 2 rejected',
      '    2026-11-22T00:00:00.000Z  p  succeeded  42 requests, 500 rows, 1 file',
    ]);
  });
});
