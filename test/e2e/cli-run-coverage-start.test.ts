/** The run summary's coverage where `since` falls off the bar grid or on a closed market: its start is no gap. */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

/** A Sunday, 30.25 s past the minute: `--since 2d` is Friday 12:00:30.250Z, inside the 12:00 bars. */
const NOW = '2026-11-29T12:00:30.250Z';

interface Summary {
  runs: { coverage: { totals: Record<string, number>; series: { code: string; interval: string; bars: number; first: string; gaps: Record<string, number>; rangeFrom: string }[] } }[];
}

describe("a run's coverage starts at since without counting a gap there", () => {
  it('BTCUSDT (24/7) and EURUSD (closed since Friday 22:00Z) walked to a since off the grid: no gap of any kind', async () => {
    const out = tempDir();
    const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,EURUSD', '--since', '2d', '--clock', NOW, '--output', out, '--quiet', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const coverage = (JSON.parse(r.stdout) as Summary).runs[0]!.coverage;
    const none = { 'market-closed': 0, halted: 0, unexplained: 0 };
    // The bars opening at 12:00 began before since and are not asked for: each series starts at the next one.
    expect(coverage.series.map((s) => [`${s.code} ${s.interval}`, s.bars, s.first, s.rangeFrom, s.gaps])).toEqual([
      ['BTCUSDT 1h', 48, '2026-11-27T13:00:00.000Z', '2026-11-27T12:00:30.250Z', none],
      ['BTCUSDT 1m', 2880, '2026-11-27T12:01:00.000Z', '2026-11-27T12:00:30.250Z', none],
      ['EURUSD 1h', 9, '2026-11-27T13:00:00.000Z', '2026-11-27T12:00:30.250Z', none],
      ['EURUSD 1m', 599, '2026-11-27T12:01:00.000Z', '2026-11-27T12:00:30.250Z', none],
    ]);
    expect(coverage.totals).toEqual(none);
  }, 60_000);
});
