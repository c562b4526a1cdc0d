/**
 * A pool of market-limited tokens (all-us, all-hk, a custom plan with `market: US`) through the real
 * CLI and its built-in emulator, on a frozen clock: every series goes to a token whose plan covers
 * its code, so a kline backfill of .US and .HK codes completes; when the tokens covering .US have
 * used up their day, the run stops as an exhausted pool does (exit 75), never with the 604 of the
 * token that refuses them. Before: a .US series given to the all-hk token failed the run (exit 1).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 90_000 });
const NOW = '2026-11-12T15:00:00Z';
const PIPELINE = `name: stocks
source:
  type: kline-history
  codes: [AAPL.US, TSLA.US, 700.HK, 857.HK]
  intervals: [1d]
  since: 2026-10-01T00:00:00Z
  until: 2026-11-12T00:00:00Z
sink:
  type: ndjson
  path: stocks.ndjson
`;

/** The pipeline file in a folder of its own, and the arguments of a run of it there. */
function stocksRun(dir: string): string[] {
  writeFileSync(join(dir, 'stocks.yaml'), PIPELINE);
  return ['run', join(dir, 'stocks.yaml'), '--output', join(dir, 'out'), '--clock', NOW, '--json', '--quiet'];
}

interface RunDoc {
  exitCode: number;
  runs: {
    status: string;
    error?: { code: string; message: string };
    datasets?: unknown;
    tokens: { plan: string; requests: number; exhausted: boolean; streams: { started: number; takenOver: number; handedOff: number } }[];
  }[];
}

describe('a pool of all-us and all-hk tokens through the CLI', () => {
  it('a kline backfill of .US and .HK codes: each series on the token that covers it, exit 0', async () => {
    // all-hk first: an idle pool's first choice, whatever the series' code.
    const r = await runCli(stocksRun(tempDir()), {
      env: { QUOTELAKE_TOKENS: 'demo-all-hk:all-hk,demo-all-us:all-us' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('604');
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.status).toBe('succeeded');
    expect(run.tokens.map((t) => [t.plan, t.requests, t.streams.started, t.streams.takenOver])).toEqual([
      ['all-hk', 2, 2, 0],
      ['all-us', 2, 2, 0],
    ]);
  });

  it('the .US tokens used up: exit 75 at their reset, the all-hk token never asked for a .US code', async () => {
    const dir = tempDir();
    const plansFile = join(dir, 'plans.yaml');
    writeFileSync(plansFile, 'plans:\n  - name: us-tiny\n    base: all-us\n    perDay: 1\n');
    const r = await runCli([...stocksRun(dir), '--plans-file', plansFile], {
      env: { QUOTELAKE_TOKENS: 'demo-us-tiny:us-tiny,demo-all-hk:all-hk' },
    });
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).not.toContain('604');
    const run = (JSON.parse(r.stdout) as RunDoc).runs[0]!;
    expect(run.status).toBe('quota-exhausted');
    expect(r.stderr).toContain('It resets at 2026-11-13T00:00:00.000Z');
    expect(run.tokens[0]).toMatchObject({ plan: 'us-tiny', requests: 1, exhausted: true });
    // The all-hk token served its two .HK series and took over no .US one.
    expect(run.tokens[1]).toMatchObject({ plan: 'all-hk', requests: 2, exhausted: false, streams: { started: 2, takenOver: 0, handedOff: 0 } });
  });
});
