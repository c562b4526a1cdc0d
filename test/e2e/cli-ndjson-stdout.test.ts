/**
 * NDJSON on stdout is honest about its reader (issue 11, part 5): without --state a run keeps no
 * checkpoint, so every run writes its whole window (`> file` twice, `| head -3` then a full run);
 * with --state the next run starts right after the rows the reader took; a reader that closes the
 * pipe with rows left unwritten makes the run exit 141 with one stderr line.
 * Windows are explicit instants in the past, so no assertion depends on today's date.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireOutputLock } from '../../src/runtime/output-lock.js';
import { allFiles, cleanEnv, MAIN, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';
import { quickRetry } from './helpers/quick-retry.js';

let emu: ServedEmulator;
beforeAll(async () => {
  emu = await serveChild([]);
});
afterAll(() => emu.stop());

const SINCE = '2025-06-01T00:00:00Z';
// Two days: six 500-bar pages, so a reader can leave with whole pages behind it and pages to come.
const UNTIL = '2025-06-03T00:00:00Z';
/** 1m bars of BTCUSDT (24/7) in [SINCE, UNTIL], both ends included. */
const BARS = 2 * 1440 + 1;
const service = () => ['--base-url', emu.url, '--token', 'demo-professional', '--plan', 'professional', '--quiet'];

/** One series, so the order of rows is the same in every run. */
function lookPipeline(dir: string): string {
  const file = join(dir, 'look.yaml');
  writeFileSync(
    file,
    `name: look\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  since: ${SINCE}\n  until: ${UNTIL}\ntransforms:\n  - type: parse-decimals\nsink:\n  type: ndjson\n`,
  );
  return file;
}

interface Finished {
  code: number | null;
  stderr: string;
}

/** The built CLI with stdout sent to a file, as `> file` does. */
function runToFile(args: readonly string[], path: string): Promise<Finished> {
  const fd = openSync(path, 'w');
  const child = spawn(process.execPath, [MAIN, ...args], { env: cleanEnv(), stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/**
 * The built CLI with stdout a pipe whose reader goes away after `take` lines (what `| head` does):
 * the lines it got, the exit code and stderr. `take` = Infinity reads to the end.
 */
function runThroughReader(args: readonly string[], take: number): Promise<Finished & { lines: string[] }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let text = '';
  const lines: string[] = [];
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    if (lines.length >= take) return;
    text += d.toString();
    const parts = text.split('\n');
    text = parts.pop()!;
    lines.push(...parts);
    if (lines.length >= take) {
      lines.length = take;
      child.stdout.destroy();
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, lines })));
}

const rowsOf = (text: string) => text.split('\n').filter((l) => l !== '');

/**
 * The look pipeline run once to the end by a reader that leaves after its last row (stdout is its
 * `path: stdout`): the rows every other whole run of it is compared with.
 */
let whole: Finished & { lines: string[] };
beforeAll(async () => {
  const dir = tempDir();
  whole = await runThroughReader(['run', lookPipeline(dir), '--output', dir, ...service()], BARS);
});

/** The --json document, which goes to stderr when stdout carries the data. */
function jsonDoc(stderr: string): { exitCode: number; runs: { status: string; rows: Record<string, { written: number }> }[] } {
  return JSON.parse(stderr.slice(stderr.indexOf('{\n')));
}

// The failing run has an emulator of its own (and retries after a few milliseconds): it runs beside the
// tests below, which share the one emulator and its token's rate windows, so run one after another.
describe.concurrent('NDJSON on stdout from a failing service', () => {
  it('a run that fails after rows went out counts those rows as written: the reader has them', async () => {
    const flaky = await serveChild([{ token: 'flaky-token', plan: 'professional', faults: '5xx=0.7' }], ['--seed', '7']);
    try {
      const dir = tempDir();
      // Four days (13 pages): enough that one page meets its six attempts all failing.
      const args = ['run', quickRetry('kline-backfill'), '--codes', 'BTCUSDT', '--since', SINCE, '--until', '2025-06-05T00:00:00Z', '--format', 'ndjson', '--output', dir, '--base-url', flaky.url, '--token', 'flaky-token', '--plan', 'professional', '--quiet', '--json'];
      const r = await runToFile(args, join(dir, 'out.ndjson'));
      const taken = rowsOf(readFileSync(join(dir, 'out.ndjson'), 'utf8')).length;
      expect(r.code, r.stderr).not.toBe(0);
      expect(taken).toBeGreaterThan(0);
      const doc = jsonDoc(r.stderr);
      expect(doc.runs[0]!.status).toBe('failed');
      expect(doc.runs[0]!.rows.kline!.written).toBe(taken);
    } finally {
      await flaky.stop();
    }
  });
});

describe.concurrent('NDJSON on stdout keeps no state unless asked', () => {
  it.sequential('`> bars.ndjson` twice gives the same rows (the run --help example)', async () => {
    const dir = tempDir();
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', SINCE, '--until', UNTIL, '--format', 'ndjson', '--output', dir, ...service()];
    const first = await runToFile(args, join(dir, 'a.ndjson'));
    const second = await runToFile(args, join(dir, 'b.ndjson'));
    expect([first.code, second.code]).toEqual([0, 0]);
    const a = rowsOf(readFileSync(join(dir, 'a.ndjson'), 'utf8'));
    const b = rowsOf(readFileSync(join(dir, 'b.ndjson'), 'utf8'));
    // kline-backfill has 1m and 1h: both series side by side, so compare as sorted lists.
    expect(a).toHaveLength(BARS + 2 * 24 + 1);
    expect([...b].sort()).toEqual([...a].sort());
    expect(first.stderr + second.stderr).toBe('');
  });

  it.sequential('a look runs while another run holds the output folder, and leaves it as it found it', async () => {
    const dir = tempDir();
    // Held as a backfill into the folder holds it: by a live process on this host (this one).
    const held = await acquireOutputLock(dir, { runId: 'backfill-run', pipeline: 'kline-backfill', now: new Date() });
    try {
      const look = await runToFile(['run', lookPipeline(dir), '--output', dir, ...service()], join(dir, 'look.ndjson'));
      expect(look.code, look.stderr).toBe(0);
      expect(rowsOf(readFileSync(join(dir, 'look.ndjson'), 'utf8'))).toHaveLength(BARS);
      // Only the token's daily count (the state folder's quota/, shared by every run on the token).
      expect(readdirSync(dir).sort(), JSON.stringify(readdirSync(dir))).toEqual(['.quotelake.lock', '.state', 'look.ndjson', 'look.yaml']);
      expect(readdirSync(join(dir, '.state'))).toEqual(['quota']);
      // A run that writes into the folder is refused, as before.
      const lake = await runToFile(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', SINCE, '--until', UNTIL, '--output', dir, ...service()], join(dir, 'lake.out'));
      expect(lake.code).toBe(1);
      expect(lake.stderr).toContain('is in use by run backfill-run of pipeline kline-backfill');
    } finally {
      await held.release();
    }
  });

  it.sequential('`| head -3` stops the run with exit 141 and one stderr line; the next run still writes every row', async () => {
    const dir = tempDir();
    const args = ['run', lookPipeline(dir), '--output', dir, ...service()];
    const head = await runThroughReader(args, 3);
    expect(head.lines).toHaveLength(3);
    expect(head.code).toBe(141);
    expect(head.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^quotelake: stdout was closed by its reader before \d+ row\(s\) of the current batch were written; the run stopped there$/)]);
    const again = await runThroughReader(args, Infinity);
    expect(again.code).toBe(0);
    expect(again.lines).toHaveLength(BARS);
    expect(again.lines.slice(0, 3)).toEqual(head.lines);
    expect(again.stderr).toBe('');
  });

  it.sequential('an interrupted run says the next one starts over, not that it resumes', async () => {
    const dir = tempDir();
    // Five months of 1m bars: about 440 pages, far more than go out before the signal lands.
    const args = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2025-01-01T00:00:00Z', '--until', UNTIL, '--format', 'ndjson', '--output', dir, ...service(), '--json'];
    const child = spawn(process.execPath, [MAIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let rows = 0;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      if (rows === 0) child.kill('SIGINT');
      rows += d.toString().split('\n').length - 1;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(130);
    expect(rows).toBeGreaterThan(0);
    expect(stderr).toContain('the rows written so far are kept, and the next run delivers the whole window again (this output keeps no state)');
    expect(stderr).not.toContain('resumes');
    const doc = JSON.parse(stderr.slice(stderr.indexOf('{\n'))) as { runs: { status: string; resumable?: boolean; rows: Record<string, { written: number }> }[] };
    expect(doc.runs[0]).toMatchObject({ status: 'interrupted', resumable: false });
    expect(doc.runs[0]!.rows.kline!.written).toBe(rows);
  });

  it.sequential('`path: "-"` in a pipeline file is stdout, as in shell tools: the same rows as `path: stdout`, no file named "-"', async () => {
    const dir = tempDir();
    const file = lookPipeline(dir);
    const dash = join(dir, 'dash.yaml');
    writeFileSync(dash, `${readFileSync(file, 'utf8')}  path: "-"\n`);
    const stdout = whole;
    const dashed = await runThroughReader(['run', dash, '--output', join(dir, 'b'), ...service()], Infinity);
    expect([stdout.code, dashed.code]).toEqual([0, 0]);
    expect(dashed.lines).toHaveLength(BARS);
    expect(dashed.lines).toEqual(stdout.lines);
    expect(allFiles(join(dir, 'b')).filter((f) => f.split('/').includes('-'))).toEqual([]);
  });

  it.sequential('a reader that leaves after the last row: exit 0, nothing on stderr', () => {
    const r = whole;
    expect(r.lines).toHaveLength(BARS);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('--state: the watermark covers only the rows the reader took', () => {
  it('after a reader that left early, the next run writes exactly the rows after the last whole batch it took', async () => {
    const dir = tempDir();
    const file = lookPipeline(dir);
    const all = whole;
    expect(all.lines).toHaveLength(BARS);

    const args = ['run', file, '--state', '--json', '--output', dir, ...service()];
    const first = await runThroughReader(args, 1200);
    expect(first.code).toBe(141);
    expect(first.lines).toEqual(all.lines.slice(0, 1200));
    const doc = jsonDoc(first.stderr);
    expect(doc.exitCode).toBe(141);
    expect(doc.runs[0]!.status).toBe('output-closed');
    // Rows count as written per whole batch the pipe took; the reader got at least those it read,
    // less the batch it was in the middle of (a page: at most 500 rows).
    const taken = doc.runs[0]!.rows.kline!.written;
    expect(taken).toBeGreaterThan(1200 - 500);
    expect(taken).toBeLessThan(BARS);
    // Its run record says the same: stopped by its reader, not failed, with the rows it took.
    const record = JSON.parse((await runThroughReader(['state', 'show', '--output', dir, '--json'], Infinity)).lines.join('\n')) as {
      pipelines: { lastRun: { status: string; rows: { kline: { written: number } } } }[];
    };
    expect(record.pipelines[0]!.lastRun).toMatchObject({ status: 'output-closed', rows: { kline: { written: taken } } });

    const second = await runThroughReader(['run', file, '--state', '--output', dir, ...service()], Infinity);
    expect(second.code).toBe(0);
    expect(second.lines).toEqual(all.lines.slice(taken));
    // And now everything was taken: a third run has nothing new in its window.
    const third = await runThroughReader(['run', file, '--state', '--output', dir, ...service()], Infinity);
    expect(third.code).toBe(0);
    expect(third.lines).toEqual([]);
    // state show says where the rows went: stdout, no folder of the output.
    const shown = await runThroughReader(['state', 'show', '--output', dir, '--json'], Infinity);
    const state = JSON.parse(shown.lines.join('\n')) as { pipelines: { streams: { stream: string; lake: string }[] }[] };
    expect(state.pipelines.flatMap((p) => p.streams.map((s) => [s.stream, s.lake]))).toEqual([['kline/BTCUSDT/1m', 'stdout']]);
  }, 90_000); // four CLI runs one after another, and a state show

  it('--no-state is refused for a sink that always keeps its checkpoints', async () => {
    const dir = tempDir();
    const r = await runThroughReader(['run', 'kline-backfill', '--no-state', '--output', dir, ...service()], Infinity);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--no-state does not apply: the "parquet" sink always keeps its checkpoints');
  });

  it('--state is refused for a sink that always keeps its checkpoints, naming the sink it is for; with --format ndjson it applies', async () => {
    const dir = tempDir();
    const [parquet, arrow, ndjson] = await Promise.all([
      runThroughReader(['run', 'kline-backfill', '--state', '--dry-run', '--output', dir, ...service()], Infinity),
      runThroughReader(['run', 'kline-backfill', '--format', 'arrow', '--state', '--dry-run', '--output', dir, ...service()], Infinity),
      runThroughReader(['run', 'kline-backfill', '--format', 'ndjson', '--state', '--dry-run', '--output', dir, ...service()], Infinity),
    ]);
    expect([parquet.code, parquet.stderr]).toEqual([
      2,
      'quotelake: --state applies only to an ndjson sink: the "parquet" sink always keeps its checkpoints (each run writes only what is new)\n' +
        '  hint: drop --state, or add --format ndjson\n',
    ]);
    expect([arrow.code, arrow.stderr.split('\n')[0]]).toEqual([2, 'quotelake: --state applies only to an ndjson sink: the "arrow" sink always keeps its checkpoints (each run writes only what is new)']);
    expect(ndjson.code).toBe(0);
  });
});

describe('--json with NDJSON on stdout: a failure\'s document goes to stderr, never among the data', () => {
  /** The document after the plain `quotelake: …` and `hint:` lines on stderr. */
  const failureDoc = (stderr: string) => JSON.parse(stderr.slice(stderr.indexOf('{\n'))) as { exitCode: number; error: { code: string; message: string } };

  it('an option refused before the run (the pipeline file writes stdout, or --format ndjson): stdout stays empty', async () => {
    const dir = tempDir();
    for (const args of [
      ['run', 'trades-ndjson', '--codes', 'btcusdt'],
      ['run', 'kline-backfill', '--format', 'ndjson', '--codes', 'btcusdt'],
      ['run', lookPipeline(dir), '--since', '2025-02-30'],
      // Refused by the command-line parser, before `run` starts.
      ['run', 'kline-backfill', '--format', 'ndjson', '--sinse', '2d'],
      ['run', 'kline-backfill', '--format=ndjson', '--sinse', '2d'],
      // The same, for pipelines whose file writes stdout (no --format on the command line).
      ['run', 'trades-ndjson', '--sinse', '2d'],
      ['run', lookPipeline(dir), '--stop-timeout', 'soon'],
    ]) {
      const r = await runToFile([...args, '--output', dir, ...service(), '--json'], join(dir, 'data.ndjson'));
      expect(r.code, r.stderr).toBe(2);
      expect(readFileSync(join(dir, 'data.ndjson'), 'utf8')).toBe('');
      expect(failureDoc(r.stderr)).toMatchObject({ exitCode: 2, error: { code: expect.stringMatching(/^QL_/) } });
    }
  });

  it('a failure once the pipelines are loaded (the metrics port in use): stdout stays empty', async () => {
    const dir = tempDir();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as AddressInfo).port;
      const r = await runToFile(['run', lookPipeline(dir), '--output', dir, ...service(), '--json', '--metrics-port', String(port)], join(dir, 'data.ndjson'));
      expect(r.code, r.stderr).toBe(2);
      expect(readFileSync(join(dir, 'data.ndjson'), 'utf8')).toBe('');
      expect(failureDoc(r.stderr).error.code).toBe('QL_PORT_IN_USE');
    } finally {
      busy.close();
    }
  });

  it('a pipeline that writes files keeps its failure document on stdout', async () => {
    const dir = tempDir();
    const r = await runToFile(['run', 'kline-backfill', '--codes', 'btcusdt', '--output', dir, ...service(), '--json'], join(dir, 'doc.json'));
    expect(r.code).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8'))).toMatchObject({ exitCode: 2, error: { code: 'QL_USAGE' } });
    expect(r.stderr).not.toContain('{');
    // --format replaces a stdout sink with files: the document is stdout's again.
    const parquet = await runToFile(['run', 'trades-ndjson', '--format', 'parquet', '--sinse', '2d', '--output', dir, ...service(), '--json'], join(dir, 'doc2.json'));
    expect(parquet.code).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'doc2.json'), 'utf8'))).toMatchObject({ exitCode: 2, error: { code: 'QL_USAGE', message: 'Unknown argument: sinse; did you mean --since?' } });
  });
});
