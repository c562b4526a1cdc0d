/**
 * Every command that writes into a local output refuses one too deep for quotelake's own files
 * under it as `run` does (lake/local-path-room.ts), before it touches anything: `plan` (and
 * `run --dry-run`) planned such a run as fine, `compact` failed at its first staged file with
 * "commit failed" and left a staging folder behind, `state reset` listed what it would forget and
 * asked, then failed at the checkpoint's temp file. An NDJSON sink's own file is counted too: a
 * path too long for it failed at the first commit, after the requests, its snapshot rows lost.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_LAKE_RESERVE_BYTES, stateFilesReserve } from '../../src/lake/local-path-room.js';
import { runCli, tempDir } from './helpers/cli.js';
import { pathOf } from './helpers/deep-path.js';

const MAX = 4095;
// Nothing listens on port 9: a request would be exit 1 (connection refused), not these refusals.
const NO_SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--plan', 'professional'];
const listing = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

/** A small committed lake (two K-line series, three hours) in `cwd`/out, and its pipeline file. */
async function smallLake(cwd: string): Promise<{ out: string; file: string }> {
  const file = join(cwd, 'two.yaml');
  writeFileSync(
    file,
    ['name: two', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT]', '  intervals: [1h]', '  since: 2026-11-11T00:00:00Z', '  until: 2026-11-11T03:00:00Z', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  const out = join(cwd, 'out');
  const run = await runCli(['run', file, '--output', out, '--clock', '2026-11-12T15:00:00Z', '--quiet'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  return { out, file };
}

describe.runIf(process.platform === 'linux')('a local output or state folder too deep, on the commands besides run', () => {
  it('plan, run --dry-run, compact, vacuum, repair, migrate and state reset refuse a lake moved too deep, exit 2, before touching it', async () => {
    const cwd = tempDir('ql-room-cmds-');
    const { out, file } = await smallLake(cwd);
    // Its own files still fit under it (the lake was moved there): the commands' longer ones do not.
    const deep = pathOf(join(cwd, 'deep'), 4000);
    mkdirSync(dirname(deep), { recursive: true });
    renameSync(out, deep);
    const before = listing(deep);
    const checkpoint = readFileSync(join(deep, '.state', 'checkpoints', 'two.json'), 'utf8');
    const commands = [
      ['plan', file, '--output', deep, ...NO_SERVICE],
      ['run', file, '--output', deep, '--dry-run', ...NO_SERVICE],
      ['compact', '--output', deep],
      ['compact', '--output', deep, '--dry-run'],
      ['vacuum', '--output', deep],
      ['repair', '--output', deep, '--yes'],
      ['migrate', '--output', deep],
      ['state', 'reset', 'two', '--output', deep, '--stream', 'kline/BTCUSDT/1h', '--yes'],
    ];
    const said = await Promise.all(commands.map((c) => runCli(c, { cwd })));
    const most = MAX - LOCAL_LAKE_RESERVE_BYTES - 1;
    const refusal = [
      `quotelake: output ${deep}: its path is 4000 bytes long, and a path on this system has at most ${MAX} bytes (PATH_MAX ${MAX + 1}), which leaves ${MAX - 4001} for quotelake's own files under it; they need up to ${LOCAL_LAKE_RESERVE_BYTES}`,
      `  hint: choose an --output of at most ${most} bytes as an absolute path (${4000 - most} fewer); nothing was sent or written`,
    ];
    expect(said.map((r) => [r.code, r.stdout, r.stderr.split('\n').slice(0, 2)])).toEqual(commands.map(() => [2, '', refusal]));
    expect(listing(deep)).toEqual(before);
    expect(readFileSync(join(deep, '.state', 'checkpoints', 'two.json'), 'utf8')).toBe(checkpoint);
  }, 90_000);

  it('state reset refuses a --state-dir too deep for its checkpoint temp file before the listing and its question', async () => {
    const cwd = tempDir('ql-room-state-');
    const { out } = await smallLake(cwd);
    // The checkpoint file fits (4081 bytes), its temp file beside it does not.
    const state = pathOf(join(cwd, 'deep'), 4060);
    mkdirSync(dirname(state), { recursive: true });
    renameSync(join(out, '.state'), state);
    const checkpoint = readFileSync(join(state, 'checkpoints', 'two.json'), 'utf8');
    const r = await runCli(['state', 'reset', 'two', '--output', out, '--state-dir', state, '--stream', 'kline/BTCUSDT/1h', '--yes'], { cwd });
    expect(r.code).toBe(2);
    const most = MAX - stateFilesReserve('two') - 1;
    expect(r.stderr).toBe(
      `quotelake: the state folder of pipeline two, ${state}: its path is 4060 bytes long, and a path on this system has at most ${MAX} bytes (PATH_MAX ${MAX + 1}), which leaves ${MAX - 4061} for quotelake's own files under it; they need up to ${stateFilesReserve('two')}\n` +
        `  hint: choose a shorter --state-dir (or --output, whose .state it is by default), of at most ${most} bytes as an absolute path (${4060 - most} fewer); nothing was sent or written\n`,
    );
    expect(readFileSync(join(state, 'checkpoints', 'two.json'), 'utf8')).toBe(checkpoint);
  }, 60_000);

  it("an NDJSON sink's file too long with its temporary name is refused by plan and run before any request; nothing is made", async () => {
    const cwd = tempDir('ql-room-ndjson-');
    const out = join(cwd, 'out');
    // The file itself would fit (4080 bytes); `.<file>.tmp-<run id>` beside it takes 29 more.
    const rel = pathOf(join(resolve(out), 'exports'), 4080).slice(resolve(out).length + 1).replace(/e{5}$/, '{dataset}');
    const file = join(cwd, 'snap.yaml');
    writeFileSync(file, ['name: snap', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', `  path: ${rel}`, ''].join('\n'));
    const shown = `${rel.replace('{dataset}', 'trade').replace(/\/[^/]+$/, '')}/.${rel.replace('{dataset}', 'trade').split('/').pop()!}.tmp-20261122T004000Z-k3f9qa`;
    const [plan, run] = await Promise.all([runCli(['plan', file, '--output', out, ...NO_SERVICE], { cwd }), runCli(['run', file, '--output', out, ...NO_SERVICE, '--json'], { cwd })]);
    const message = `output ${out}: the sink writes ${shown} under it, whose path is 4109 bytes long (its temporary name included), and a path on this system has at most ${MAX} bytes (PATH_MAX ${MAX + 1})`;
    const hint = `shorten the sink's path or the --output by 14 bytes (as an absolute path); nothing was sent or written`;
    expect([plan.code, plan.stderr.split('\n').slice(0, 2)]).toEqual([2, [`quotelake: ${message}`, `  hint: ${hint}`]]);
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as { runs: { requestsTotal: number; error: { code: string; message: string; hint: string } }[] };
    expect(doc.runs[0]!.requestsTotal).toBe(0);
    expect(doc.runs[0]!.error).toEqual(expect.objectContaining({ code: 'QL_OUTPUT_MISSING', message, hint }));
    expect(readdirSync(cwd).sort()).toEqual(['snap.yaml']);
  }, 60_000);
});
