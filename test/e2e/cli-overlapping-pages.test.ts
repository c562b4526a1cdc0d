/**
 * Through the built CLI against `quotelake serve`, counted by the emulator itself: a backfill from a
 * service whose pages overlap (R2) delivers exactly the bars of a clean service's backfill, for
 * about its requests (before: twice as many, each page's bar above the next page asked for on its
 * own), while the clean backfill's requests stay those of the plain chain.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';

const NOW = '2026-11-20T12:00:00Z';
const CLEAN = 'sk-e2e-clean-pages';
const OVERLAP = 'sk-e2e-overlapping-pages';
// A plan nothing paces: the emulator's frozen clock would otherwise hold its per-second window.
const PLANS = `plans:
  - name: wide
    perSecond: 1000000
    perMinute: 100000000
    perDay: 100000000
tokens:
  - token: ${CLEAN}
    plan: wide
  - token: ${OVERLAP}
    plan: wide
    behaviours: overlap
`;

let dir = '';
let serve: CliProcess | undefined;
let url = '';

beforeAll(async () => {
  dir = tempDir('ql-overlap-');
  writeFileSync(join(dir, 'plans.yaml'), PLANS);
  writeFileSync(
    join(dir, 'backfill.yaml'),
    'name: backfill\nsource:\n  type: kline-history\n  codes: [BTCUSDT, EURUSD]\n  intervals: [1m]\n  since: 8d\nsink:\n  type: ndjson\n',
  );
  serve = startCli(['serve', '--port', '0', '--seed', '7', '--clock', NOW, '--plans-file', join(dir, 'plans.yaml')]);
  url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
});

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

/** The run's NDJSON lines, sorted, and the requests the emulator counted for the token. */
async function backfill(token: string): Promise<{ lines: string[]; requests: number }> {
  const r = await runCli(['run', join(dir, 'backfill.yaml'), '--base-url', url, '--plans-file', join(dir, 'plans.yaml'), '--plan', 'wide', '--clock', NOW, '--quiet'], {
    env: { QUOTELAKE_TOKEN: token },
  });
  expect(r.code, r.stderr).toBe(0);
  const usage = (await (await fetch(`${url}/_emulator/usage?token=${token}`)).json()) as { usage: { day: { used: number } } };
  return { lines: r.stdout.trim().split('\n').sort(), requests: usage.usage.day.used };
}

describe('a backfill from a service whose pages overlap, through the CLI', () => {
  it('the clean backfill\'s bars, none twice, for at most a few requests more than its plain chain', async () => {
    const clean = await backfill(CLEAN);
    const overlapping = await backfill(OVERLAP);
    // The plain chain, one request per page of up to 500 bars: 11,521 BTCUSDT bars in 24 pages,
    // 8,641 EURUSD bars in 18. Learning the overlap must not move it.
    expect(clean.lines.length).toBe(20_162);
    expect(clean.requests).toBe(42);
    expect(overlapping.lines).toEqual(clean.lines);
    expect(new Set(overlapping.lines).size).toBe(overlapping.lines.length);
    // Each series learns the overlap from its first page: the pages it had asked for ahead by then
    // (prefetchPages - 1 = 3) are a bar off, the rest of its chain is not. Before: every page took
    // two requests.
    expect(overlapping.requests).toBeLessThanOrEqual(clean.requests + 4 * 2);
  }, 120_000);
});
