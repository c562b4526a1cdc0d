/**
 * A bar stamped before its product was listed (one "60", 1970, in an answer of 2026) is a rejected
 * record with its code, field and value, never cut away unseen below the window (nor stored in
 * 1970): received = written + merged + rejected holds and the run ends with exit 3. Through the
 * built CLI against `quotelake serve`, with a proxy between that restamps one bar of one answer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFiles, runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';
import { startRewritingProxy, type RewritingProxy } from './helpers/rewriting-proxy.js';

const NOW = '2026-11-20T15:00:00Z';

let serve: CliProcess | undefined;
let proxy: RewritingProxy | undefined;
/** Which bar of the next K-line answer the proxy stamps "60" (then none), and the stamps it replaced. */
let target: number | undefined;
const replaced: string[] = [];

type Bar = { timestamp: string };

/** The run's first K-line answer will have its bar at `index` stamped "60". */
function stampNext(index: number): void {
  target = index;
  replaced.length = 0;
}

beforeAll(async () => {
  serve = startCli(['serve', '--port', '0', '--seed', '7', '--clock', NOW, '--no-limits']);
  const url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
  proxy = await startRewritingProxy(url, (path, answer) => {
    const list = (answer.data as { kline_list?: unknown[] } | undefined)?.kline_list ?? [];
    const bars = path.endsWith('/batch-kline') ? (list as { kline_data: Bar[] }[])[0]?.kline_data : path.endsWith('/kline') ? (list as Bar[]) : undefined;
    if (target === undefined || bars === undefined || bars.length <= target) return;
    replaced.push(bars[target]!.timestamp);
    bars[target]!.timestamp = '60';
    target = undefined;
  });
});

afterAll(async () => {
  await proxy?.close();
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

interface Rejected {
  code: string;
  field: string;
  value: string;
  reason: string;
}

async function runThrough(source: string): Promise<{ code: number | null; stderr: string; requests: number; rows: Record<string, number>; rejected: Rejected[] }> {
  const dir = tempDir('ql-listing-');
  const pipeline = join(dir, 'p.yaml');
  writeFileSync(pipeline, `name: p\nsource:\n${source}transforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
  const output = join(dir, 'out');
  const r = await runCli(['run', pipeline, '--base-url', proxy!.url, '--plan', 'professional', '--output', output, '--clock', NOW, '--json'], {
    env: { QUOTELAKE_TOKEN: 'demo-professional' },
  });
  const rejected = allFiles(output)
    .filter((f) => f.includes('_rejected'))
    .flatMap((f) => readFileSync(f, 'utf8').trim().split('\n'))
    .map((l) => JSON.parse(l) as Rejected);
  const doc = JSON.parse(r.stdout) as { runs: { requests: Record<string, number>; rows: { kline: Record<string, number> } }[] };
  return { code: r.code, stderr: r.stderr, requests: Object.values(doc.runs[0]!.requests).reduce((a, b) => a + b, 0), rows: doc.runs[0]!.rows.kline, rejected };
}

describe('a bar stamped before its product was listed', () => {
  it('kline-history walking a crypto hour: rejected as QL_BAR_BEFORE_LISTING, counted as received', async () => {
    stampNext(5);
    const r = await runThrough('  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  since: 2026-11-20T13:00:00Z\n  until: 2026-11-20T13:59:59Z\n');
    expect(r.code, r.stderr).toBe(3);
    expect(replaced).toEqual([String(Date.parse('2026-11-20T13:04:00Z') / 1000)]);
    expect(r.rejected.map((l) => [l.code, l.field, l.value, l.reason])).toEqual([
      ['QL_BAR_BEFORE_LISTING', 'timestamp', '60', 'QL_BAR_BEFORE_LISTING: field timestamp: 1970-01-01T00:01:00.000Z is before BTCUSDT was listed (2017-08-17, UTC)'],
    ]);
    // One request of 61 bars (the hour and one below since, not this run's): the hour's 60 are
    // received, the one stamped 1970 among them rejected (before: 59 received, 1970 gone unseen).
    expect(r.requests).toBe(1);
    expect(r.rows).toMatchObject({ received: 60, written: 59, merged: 0, rejected: 1 });
  });

  it('kline-history of a stock (its newest bars): the same', async () => {
    stampNext(5);
    const r = await runThrough('  type: kline-history\n  codes: [AAPL.US]\n  intervals: [1m]\n  since: 2026-11-20T14:30:00Z\n');
    expect(r.code, r.stderr).toBe(3);
    expect(replaced).toHaveLength(1);
    expect(r.rejected.map((l) => [l.code, l.value])).toEqual([['QL_BAR_BEFORE_LISTING', '60']]);
    expect(r.rows.rejected).toBe(1);
    expect(r.rows.received).toBe(r.rows.written! + r.rows.merged! + r.rows.rejected!);
  });

  it('kline-latest: the same, where no window cut it (it was stored in a 1970 partition before)', async () => {
    // The older of the latest two bars: the newest stays the forming bar.
    stampNext(0);
    const r = await runThrough('  type: kline-latest\n  codes: [BTCUSDT]\n  intervals: [1m]\n');
    expect(r.code, r.stderr).toBe(3);
    expect(replaced).toHaveLength(1);
    expect(r.rejected.map((l) => [l.code, l.value])).toEqual([['QL_BAR_BEFORE_LISTING', '60']]);
    expect(r.rows).toMatchObject({ received: 2, written: 1, rejected: 1 });
  });
});
