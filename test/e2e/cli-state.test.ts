/**
 * `quotelake state show|reset` and `run --full-refresh` through the built CLI, on a frozen clock and
 * a window wholly in the past (every bar final), so each run's requests and rows are exact.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { duck } from '../sinks/helpers.js';
import { cleanEnv, MAIN, ROOT, runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const WINDOW = ['--codes', 'BTCUSDT,ETHUSDT,EURUSD', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-11T00:00:00Z', '--clock', NOW];
const STREAMS = ['kline/BTCUSDT/1h', 'kline/BTCUSDT/1m', 'kline/ETHUSDT/1h', 'kline/ETHUSDT/1m', 'kline/EURUSD/1h', 'kline/EURUSD/1m'];

interface Instant {
  utc: string;
  epochMs: number;
}
interface StreamJson {
  stream: string;
  dataset: string;
  code: string;
  interval: string;
  watermark: Instant | null;
  low: Instant | null;
  lake: string;
  position: Record<string, unknown>;
  lastRun: { requests: number; rows: number } | null;
}
interface ShowJson {
  command: string;
  pipelines: {
    pipeline: string;
    keepsState: boolean;
    checkpoints: { path: string; updatedAt: string; runId: string } | null;
    lastRun: { runId: string; status: string; requests: number; rows: Record<string, { received: number; written: number }> } | null;
    streams: StreamJson[];
  }[];
}
interface RunJson {
  runs: { runId: string; requestsTotal: number }[];
}

async function run(output: string, ...extra: string[]): Promise<RunJson['runs'][number]> {
  const r = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', output, '--json', '--quiet', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as RunJson).runs[0]!;
}

async function show(output: string, ...extra: string[]): Promise<ShowJson> {
  const r = await runCli(['state', 'show', '--output', output, '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ShowJson;
}

async function series(output: string): Promise<{ series: string; rows: number; first: string; last: string }[]> {
  const r = await runCli(['inspect', output, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { datasets: { series: { series: string; rows: number; first: string; last: string }[] }[] }).datasets.flatMap((d) => d.series);
}

/** Rows and distinct (interval, code, ts) keys over the files the manifest lists as live. */
async function keyCounts(output: string): Promise<{ rows: number; keys: number }> {
  const manifest = JSON.parse(readFileSync(join(output, '_quotelake', 'manifests', 'kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
  const list = manifest.files.map((f) => `'${join(output, 'kline', f.path)}'`).join(', ');
  const [row] = await duck(`SELECT count(*) AS n, count(DISTINCT (interval, code, ts)) AS d FROM read_parquet([${list}], hive_partitioning = true)`);
  return { rows: Number(row!.n), keys: Number(row!.d) };
}

/** The checkpoints alone, without what the newest run did for each. */
const positions = (streams: StreamJson[]) => streams.map(({ lastRun: _lastRun, ...rest }) => rest);

const checkpointFile = (output: string) => join(output, '.state', 'checkpoints', 'kline-backfill.json');

let base: string;
let first: RunJson['runs'][number];
/** What `state show` and `inspect` say of the base lake: a copy not yet changed says the same. */
let baseShow: ShowJson;
let baseSeries: Awaited<ReturnType<typeof series>>;
beforeAll(async () => {
  base = join(tempDir('ql-state-'), 'out');
  first = await run(base);
  [baseShow, baseSeries] = await Promise.all([show(base), series(base)]);
}, 60_000);

/** The streams `state show` gave for the base lake, as it gives them for an unchanged copy at `out` (its paths). */
const streamsIn = (out: string): StreamJson[] => (JSON.parse(JSON.stringify(baseShow).replaceAll(base, out)) as ShowJson).pipelines[0]!.streams;

function copy(): string {
  const dir = join(tempDir('ql-state-'), 'out');
  cpSync(base, dir, { recursive: true });
  return dir;
}

describe('a state folder given to another output', () => {
  it('is refused (exit 2) by run and plan, before a request; the lake it belongs to, moved or copied, still resumes', async () => {
    const lake = copy();
    const other = join(tempDir('ql-state-'), 'out');
    for (const command of ['run', 'plan']) {
      const r = await runCli([command, 'kline-backfill', ...WINDOW, '--output', other, '--state-dir', join(lake, '.state')]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${checkpointFile(lake)}: the checkpoints of pipeline "kline-backfill" were saved for another lake (id `);
      expect(r.stderr).toContain(`than ${other}, which has no lake id (a new output, or one whose _quotelake/layout.json was lost)`);
      // A new output may be that lake with its layout file lost: repair is offered first.
      expect(r.stderr).toContain(`hint: if this is that lake and its _quotelake/layout.json was lost, "quotelake repair --output ${other} --yes"`);
      expect(r.stderr).toContain('; otherwise give each output its own state folder');
    }
    expect(existsSync(join(other, 'kline'))).toBe(false);
    // A refused run leaves no lake behind: no layout, so no id the next run would be tied to.
    expect(existsSync(join(other, '_quotelake'))).toBe(false);
    // The copy keeps its lake's id, and the checkpoints inside it: nothing to send again.
    const lakeId = (JSON.parse(readFileSync(join(lake, '_quotelake', 'layout.json'), 'utf8')) as { lakeId: string }).lakeId;
    expect(lakeId).toMatch(/^[0-9a-f]{16}$/);
    expect((JSON.parse(readFileSync(checkpointFile(lake), 'utf8')) as { lake: string }).lake).toBe(lakeId);
    expect((await run(lake)).requestsTotal).toBe(0);
  });
});

describe('quotelake state show', () => {
  it('shows each stream at the last bar held, the run that saved it and where its rows are', () => {
    const out = base;
    const doc = baseShow;
    expect(doc.command).toBe('state show');
    expect(doc.pipelines.map((p) => p.pipeline)).toEqual(['kline-backfill']);
    const p = doc.pipelines[0]!;
    expect(p.keepsState).toBe(true);
    expect(p.checkpoints).toMatchObject({ path: checkpointFile(out), runId: first.runId });
    expect(p.lastRun).toMatchObject({ runId: first.runId, status: 'succeeded', requests: first.requestsTotal, rows: { kline: { received: 4398, written: 4398 } } });
    expect(p.streams.map((s) => s.stream)).toEqual(STREAMS);
    // The watermark is the newest bar the lake holds for the series, the low its oldest.
    const held = new Map(baseSeries.map((s) => [s.series, s]));
    for (const s of p.streams) {
      const lake = held.get(`${s.code} ${s.interval}`)!;
      expect(s.watermark?.utc, s.stream).toBe(lake.last.replace('.000Z', 'Z'));
      expect(s.low?.utc, s.stream).toBe(lake.first.replace('.000Z', 'Z'));
      expect(s.watermark?.utc).toBe('2026-11-11T00:00:00Z');
      expect(s.position).toEqual({ watermark: s.watermark!.epochMs / 1000, low: s.low!.epochMs / 1000 });
      expect(s.lake).toBe(join(out, 'kline', `interval=${s.interval}`));
      // What the run did per series: three 500-bar pages for a day of 1m bars, one for 1h.
      expect(s.lastRun).toEqual(s.interval === '1m' ? { requests: 3, rows: 1441 } : { requests: 1, rows: 25 });
    }
    expect(p.streams.reduce((a, s) => a + s.lastRun!.requests, 0)).toBe(first.requestsTotal);
  });

  it('selects streams by glob, by pipeline file, and says so when nothing is held', async () => {
    const out = copy();
    expect((await show(out, '--stream', 'ETH*')).pipelines[0]!.streams.map((s) => s.stream)).toEqual(['kline/ETHUSDT/1h', 'kline/ETHUSDT/1m']);
    expect((await show(out, 'kline-backfill', '--stream', '*/1h')).pipelines[0]!.streams.map((s) => s.stream)).toEqual(['kline/BTCUSDT/1h', 'kline/ETHUSDT/1h', 'kline/EURUSD/1h']);
    const text = await runCli(['state', 'show', '--output', out, '--stream', 'BTCUSDT/1m']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`kline/BTCUSDT/1m  watermark 2026-11-11T00:00:00Z, low 2026-11-10T00:00:00Z; last run 3 requests, 1,441 rows  -> ${join(out, 'kline', 'interval=1m')} (code=BTCUSDT)`);
    expect(text.stdout).toContain(`last run ${first.runId} succeeded`);
    const typo = await runCli(['state', 'show', 'kline-backfil', '--output', out]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`pipeline "kline-backfil" not found: no pipeline file of that name, and no checkpoints for it under ${out}/.state; did you mean kline-backfill?`);
    expect(typo.stderr).toContain('hint: pipelines with checkpoints there: kline-backfill');
    cpSync(checkpointFile(out), join(out, '.state', 'checkpoints', 'old-name.json'));
    expect((await show(out, 'old-name')).pipelines[0]!.streams).toHaveLength(6);
    const empty = await runCli(['state', 'show', '--output', join(tempDir(), 'none')]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/no checkpoints under .*none\/\.state/);
  });

  it('an NDJSON look on stdout keeps no checkpoints', async () => {
    const out = join(tempDir('ql-state-'), 'out');
    // One code of the window is enough to show it: a day of 1m bars and of 1h bars, both ends held.
    const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', ...WINDOW.slice(2), '--format', 'ndjson', '--output', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1441 + 25);
    expect(existsSync(join(out, '.state', 'checkpoints'))).toBe(false);
    expect((await show(out)).pipelines).toEqual([]);
    const shipped = (await show(out, 'trades-ndjson')).pipelines[0]!;
    expect(shipped).toMatchObject({ pipeline: 'trades-ndjson', keepsState: false, checkpoints: null });
    const text = await runCli(['state', 'show', 'trades-ndjson', '--output', out]);
    expect(text.stdout).toContain('keeps no checkpoints: every run writes its whole window');
  });
});

describe('quotelake state reset', () => {
  it('--stream BTC* --yes forgets only the BTC series; data stays; the next run refetches them without duplicates', async () => {
    const out = copy();
    const before = streamsIn(out);
    const rowsBefore = baseSeries;
    const r = await runCli(['state', 'reset', '--output', out, '--stream', 'BTC*', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('forgets 2 checkpoint(s)');
    expect(r.stderr).toContain('kline/BTCUSDT/1h (at 2026-11-11T00:00:00Z)');
    expect(r.stderr).toContain('Data files are kept');
    const after = (await show(out)).pipelines[0]!.streams;
    expect(after).toEqual(before.filter((s) => !s.stream.startsWith('kline/BTCUSDT/')));
    expect(await series(out)).toEqual(rowsBefore);

    const again = await run(out);
    expect(again.requestsTotal).toBe(4);
    const refetched = (await show(out)).pipelines[0]!.streams;
    expect(positions(refetched)).toEqual(positions(before));
    // Only the reset series were fetched again.
    expect(refetched.map((s) => [s.stream, s.lastRun?.requests])).toEqual(STREAMS.map((k) => [k, k === 'kline/BTCUSDT/1m' ? 3 : k === 'kline/BTCUSDT/1h' ? 1 : 0]));
    expect(await series(out)).toEqual(rowsBefore);
    const counts = await keyCounts(out);
    expect(counts.rows).toBe(4398);
    expect(counts.keys).toBe(counts.rows);
  });

  it('without a terminal it needs --yes (exit 2, nothing changed); nothing matching is not an error', async () => {
    const out = copy();
    const file = readFileSync(checkpointFile(out), 'utf8');
    const r = await runCli(['state', 'reset', '--output', out, '--stream', 'BTC*']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin is not a terminal');
    expect(r.stderr).toContain(`add --yes to confirm it in a script: quotelake state reset --stream 'BTC*' --output ${out} --yes`);
    expect(readFileSync(checkpointFile(out), 'utf8')).toBe(file);
    // The --json document of the refusal names its command, as the command's own documents do.
    const json = await runCli(['state', 'reset', '--output', out, '--stream', 'BTC*', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'state reset', exitCode: 2, error: { code: 'QL_USAGE' } });
    const none = await runCli(['state', 'reset', '--output', out, '--stream', 'NOPE*']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toContain('nothing to reset: no checkpoint matching NOPE*');
    // What it could have matched, so a typo shows itself.
    expect(none.stderr).toContain('; its checkpoints: kline/BTCUSDT/1h, kline/BTCUSDT/1m, kline/ETHUSDT/1h');
    // Two pipelines holding the same streams: each named once, with its pipeline.
    const saved = JSON.parse(file) as Record<string, unknown>;
    writeFileSync(join(out, '.state', 'checkpoints', 'kline-twin.json'), JSON.stringify({ ...saved, pipeline: 'kline-twin' }));
    const two = await runCli(['state', 'reset', '--output', out, '--stream', 'NOPE*', '--yes']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toContain('; its checkpoints: kline-backfill: kline/BTCUSDT/1h, kline-backfill: kline/BTCUSDT/1m, kline-backfill: kline/ETHUSDT/1h, kline-backfill: kline/ETHUSDT/1m, kline-backfill: kline/EURUSD/1h, kline-backfill: kline/EURUSD/1m, kline-twin: kline/BTCUSDT/1h, kline-twin: kline/BTCUSDT/1m and 4 more');
  });

  it('refuses while a run holds the output, and changes nothing', async () => {
    const out = copy();
    const file = readFileSync(checkpointFile(out), 'utf8');
    // A live holder on this host: this test process.
    writeFileSync(join(out, '.quotelake.lock'), JSON.stringify({ pid: process.pid, host: hostname(), runId: 'r-live', pipeline: 'kline-backfill', startedAt: NOW }));
    const r = await runCli(['state', 'reset', 'kline-backfill', '--output', out, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`state reset refused, nothing changed under ${out}: ${out} is in use by run r-live of pipeline kline-backfill`);
    // The way out of a reset: wait and reset again (another --output would reset nothing here).
    expect(r.stderr).toContain('  hint: another quotelake command (a run, compact, vacuum, repair or migrate: the message names it) is writing to this output; wait for it to end, then run the same state reset again\n');
    expect(r.stderr).not.toContain('--output');
    expect(readFileSync(checkpointFile(out), 'utf8')).toBe(file);
  });

  it('a whole pipeline: the checkpoint file goes, the run records stay', async () => {
    const out = copy();
    const r = await runCli(['state', 'reset', 'kline-backfill', '--output', out, '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'state reset', exitCode: 0, reset: [{ pipeline: 'kline-backfill', streams: STREAMS }] });
    expect(existsSync(checkpointFile(out))).toBe(false);
    const p = (await show(out, 'kline-backfill')).pipelines[0]!;
    expect(p.checkpoints).toBeNull();
    expect(p.lastRun?.runId).toBe(first.runId);
  });
});

describe('quotelake run --full-refresh', () => {
  it('needs --yes without a terminal, then refetches everything while a plain rerun sends nothing; no duplicates after', async () => {
    const out = copy();
    const rowsBefore = baseSeries;
    const stateBefore = streamsIn(out);
    const refused = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', out, '--full-refresh']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the checkpoint of each stream it fetches is replaced as it commits');
    // The whole command, as typed: without its --output and window it would refresh another lake.
    expect(refused.stderr).toContain(`add --yes to confirm it in a script: quotelake run kline-backfill ${WINDOW.join(' ')} --output ${out} --full-refresh --yes`);
    expect((await show(out)).pipelines[0]!.lastRun?.runId).toBe(first.runId); // nothing ran

    expect((await run(out)).requestsTotal).toBe(0);
    const refresh = await run(out, '--full-refresh', '--yes');
    expect(refresh.requestsTotal).toBe(first.requestsTotal);
    expect((await run(out)).requestsTotal).toBe(0);
    expect(await series(out)).toEqual(rowsBefore);
    expect(positions((await show(out)).pipelines[0]!.streams)).toEqual(positions(stateBefore));
    const counts = await keyCounts(out);
    expect(counts.rows).toBe(4398);
    expect(counts.keys).toBe(counts.rows);
  });

  it('--dry-run plans from since, as if nothing were held', async () => {
    const out = copy();
    const plan = async (...extra: string[]) => {
      const r = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', out, '--dry-run', '--json', ...extra]);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { plans: { plan: { totalRequests: number } }[] }).plans[0]!.plan.totalRequests;
    };
    expect(await plan()).toBe(0);
    expect(await plan('--full-refresh')).toBe(first.requestsTotal);
  });
});

describe('quotelake state (usage)', () => {
  it('lists show and reset; no subcommand is exit 2 naming them', async () => {
    const help = await runCli(['state', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('quotelake state show [pipeline...]');
    expect(help.stdout).toContain('quotelake state reset [pipeline...]');
    const none = await runCli(['state']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Name a state command: show or reset.');
    const reset = await runCli(['state', 'reset', '--help']);
    expect(reset.stdout).toContain('Data files are not deleted');
  });
});

/** util-linux `script` gives the CLI a pseudo-terminal on stdin, as a user at a terminal has. */
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

function onTerminal(args: readonly string[], answer: string): Promise<{ code: number | null; output: string }> {
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  const child = spawn('script', ['-qec', [process.execPath, MAIN, ...args].map(quote).join(' '), '/dev/null'], { cwd: ROOT, env: cleanEnv() });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stdin.end(`${answer}\n`);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe.skipIf(!HAS_SCRIPT)('on a terminal (skipped: no util-linux script for a pseudo-terminal)', () => {
  it('state reset asks y/N: n changes nothing (exit 1), y resets', async () => {
    const out = copy();
    const file = readFileSync(checkpointFile(out), 'utf8');
    const no = await onTerminal(['state', 'reset', '--output', out, '--stream', 'BTC*'], 'n');
    expect(no.code, no.output).toBe(1);
    expect(no.output).toContain('Reset these checkpoints? [y/N] ');
    expect(no.output).toContain('not confirmed; nothing was reset');
    expect(readFileSync(checkpointFile(out), 'utf8')).toBe(file);
    const yes = await onTerminal(['state', 'reset', '--output', out, '--stream', 'BTC*'], 'y');
    expect(yes.code, yes.output).toBe(0);
    expect(yes.output).toContain('kline-backfill: reset 2 checkpoint(s); data files kept');
    expect((await show(out)).pipelines[0]!.streams.map((s) => s.stream)).toEqual(STREAMS.filter((s) => !s.includes('BTC')));
  });

  it('run --full-refresh asks y/N before sending anything', async () => {
    const out = copy();
    const no = await onTerminal(['run', 'kline-backfill', ...WINDOW, '--output', out, '--full-refresh'], 'n');
    expect(no.code, no.output).toBe(1);
    expect(no.output).toContain('kline-backfill: 6 checkpoint(s) saved under');
    expect(no.output).toContain('Run a full refresh? [y/N] ');
    expect(no.output).toContain('not confirmed; nothing was run');
    expect((await show(out)).pipelines[0]!.lastRun?.runId).toBe(first.runId);
  });

  it('answered n under --json, the command still prints its document: exit 1, QL_NOT_CONFIRMED, nothing done', async () => {
    const out = copy();
    const file = readFileSync(checkpointFile(out), 'utf8');
    const reset = await onTerminal(['state', 'reset', '--output', out, '--stream', 'BTC*', '--json'], 'n');
    expect(reset.code, reset.output).toBe(1);
    expect(lastJsonDoc(reset.output)).toEqual({
      quotelake: expect.any(String) as string,
      command: 'state reset',
      exitCode: 1,
      reset: [],
      error: { code: 'QL_NOT_CONFIRMED', message: 'not confirmed; nothing was reset', hint: 'answer y to go ahead, or add --yes' },
    });
    expect(readFileSync(checkpointFile(out), 'utf8')).toBe(file);
    const run = await onTerminal(['run', 'kline-backfill', ...WINDOW, '--output', out, '--full-refresh', '--json'], 'n');
    expect(run.code, run.output).toBe(1);
    expect(lastJsonDoc(run.output)).toMatchObject({ command: 'run', exitCode: 1, runs: [], error: { code: 'QL_NOT_CONFIRMED', message: 'not confirmed; nothing was run' } });
    expect((await show(out)).pipelines[0]!.lastRun?.runId).toBe(first.runId);
  });
});

/** The JSON document a command printed last on the pseudo-terminal (its lines end in CR LF there). */
function lastJsonDoc(output: string): unknown {
  const text = output.replaceAll('\r\n', '\n');
  return JSON.parse(text.slice(text.lastIndexOf('\n{\n') + 1));
}
