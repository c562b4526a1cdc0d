/**
 * A pipeline without a transform rejects nothing: a record its source found wrong is written with a
 * `flaw` key and the run ends with exit 0 (README). That is never silent: the summary, `--json`'s
 * rows, the `run-end` line and a warn line that `--quiet` keeps count the flawed records written.
 * Through the built CLI against `quotelake serve`, with a proxy between that puts one bar off its grid.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';
import { startRewritingProxy, type RewritingProxy } from './helpers/rewriting-proxy.js';

const NOW = '2026-11-20T15:00:00Z';
const OFF_GRID = String(Date.parse('2026-11-20T13:04:17Z') / 1000);

let serve: CliProcess | undefined;
let proxy: RewritingProxy | undefined;
/** Whether the proxy moves the sixth bar of each /kline answer 17 s off its minute. */
let offGrid = true;

beforeAll(async () => {
  serve = startCli(['serve', '--port', '0', '--seed', '7', '--clock', NOW, '--no-limits']);
  const url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
  proxy = await startRewritingProxy(url, (path, answer) => {
    const bars = (answer.data as { kline_list?: { timestamp: string }[] } | undefined)?.kline_list;
    if (!offGrid || !path.endsWith('/kline') || bars === undefined || bars.length <= 5) return;
    bars[5]!.timestamp = String(Number(bars[5]!.timestamp) + 17);
  });
});

afterAll(async () => {
  await proxy?.close();
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

/** A raw pipeline of one hour of BTCUSDT 1m bars, to an NDJSON file, with the flags given. */
async function runRaw(flags: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; lines: Record<string, unknown>[] }> {
  const dir = tempDir('ql-raw-flaw-');
  const pipeline = join(dir, 'raw.yaml');
  writeFileSync(
    pipeline,
    'name: raw\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  since: 2026-11-20T13:00:00Z\n  until: 2026-11-20T13:59:59Z\nsink:\n  type: ndjson\n  path: exports/{dataset}.ndjson\n',
  );
  const output = join(dir, 'out');
  const r = await runCli(['run', pipeline, '--base-url', proxy!.url, '--plan', 'professional', '--output', output, '--clock', NOW, ...flags], {
    env: { QUOTELAKE_TOKEN: 'demo-professional' },
  });
  const lines = readFileSync(join(output, 'exports/kline.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, lines };
}

describe('a raw pipeline that wrote records its source found wrong', () => {
  it('exit 0, and --json rows, the run-end line and a warn line count the flawed record', async () => {
    offGrid = true;
    const r = await runRaw(['--json', '--log-format', 'json', '--log-level', 'info']);
    expect(r.code, r.stderr).toBe(0);
    const flawed = r.lines.filter((l) => l.flaw !== undefined);
    expect(flawed.map((l) => (l.flaw as { code: string; value: string }).code + ' ' + (l.flaw as { value: string }).value)).toEqual([`QL_BAR_OFF_GRID ${OFF_GRID}`]);
    const doc = JSON.parse(r.stdout) as { runs: { rows: { kline: Record<string, number> } }[] };
    expect(doc.runs[0]!.rows.kline).toEqual({ received: 60, written: 60, merged: 0, rejected: 0, flawed: 1 });
    const log = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.find((l) => l.event === 'run-end')).toMatchObject({ status: 'succeeded', written: 60, rejected: 0, flawed: 1 });
    expect(log.find((l) => l.event === 'flawed')).toMatchObject({ level: 'warn', flawed: 1, msg: '1 record written with a flaw key (the source found it wrong; no transform rejects here)' });
  });

  it('the summary says it under the rows, and --quiet keeps the warn line', async () => {
    offGrid = true;
    const plain = await runRaw([]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('  rows kline            60 received = 60 written (new) + 0 merged (key already held) + 0 rejected\n');
    expect(plain.stderr).toContain("    with a flaw         1 written or merged with a flaw key (the source found it wrong): jq 'select(.flaw)'\n");
    const quiet = await runRaw(['--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toMatch(/WARN: 1 record written with a flaw key \(the source found it wrong; no transform rejects here\) \{"event":"flawed","flawed":1\}\n$/);
  });

  it('a clean raw run says nothing of flaws', async () => {
    offGrid = false;
    const r = await runRaw(['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines.some((l) => l.flaw !== undefined)).toBe(false);
    expect((JSON.parse(r.stdout) as { runs: { rows: { kline: Record<string, number> } }[] }).runs[0]!.rows.kline).toEqual({ received: 60, written: 60, merged: 0, rejected: 0 });
    expect(r.stderr).not.toContain('flaw');
  });
});
