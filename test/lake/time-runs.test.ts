import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { MAX_RUNS_PER_GROUP, TimeRunsBuilder, wellFormedRuns, type TimeRun } from '../../src/lake/commit/time-runs.js';

/** What the runs stand for, in order. */
const expand = (runs: readonly TimeRun[]) => runs.flatMap(([first, step, count]) => Array.from({ length: count }, (_, k) => first + step * k));

describe('time runs of a file (the manifest lists them; coverage reads them instead of the file)', () => {
  it('expand to exactly each group\'s times in the order given, whatever the times', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = mulberry32(seed);
      const groups = ['BTCUSDT', 'ETHUSDT', 'GOLD'];
      const times: number[][] = groups.map(() => []);
      const builder = new TimeRunsBuilder(groups.length);
      // Mostly one minute apart, now and then a jump (a break), a repeat or a step back.
      const at = groups.map(() => 1_763_535_600_000 + Math.floor(random() * 100) * 60_000);
      for (let i = 0; i < 400; i++) {
        const g = Math.floor(random() * groups.length);
        const r = random();
        at[g]! += r < 0.9 ? 60_000 : r < 0.93 ? 3_600_000 : r < 0.96 ? 0 : -120_000;
        times[g]!.push(at[g]!);
        builder.add(g, at[g]!);
      }
      const runs = builder.runs(groups);
      if (runs === undefined) {
        // Only when some group needed more runs than are listed.
        expect(times.some((t) => t.length > MAX_RUNS_PER_GROUP)).toBe(true);
        continue;
      }
      for (const [g, name] of groups.entries()) {
        expect(expand(runs[name]!)).toEqual(times[g]);
        const shape = wellFormedRuns(runs[name]!)!;
        expect(shape).toEqual({ count: times[g]!.length, min: Math.min(...times[g]!), max: Math.max(...times[g]!) });
      }
    }
  });

  it('a day of bars is one run; a break adds one; a lone bar has step 0; a group without rows is left out', () => {
    const builder = new TimeRunsBuilder(4);
    for (let m = 0; m < 1440; m++) builder.add(0, m * 60_000);
    for (let m = 0; m < 1440; m++) if (m < 600 || m >= 660) builder.add(1, m * 60_000);
    builder.add(2, 5);
    expect(builder.runs(['A', 'B', 'C', 'D'])).toEqual({
      A: [[0, 60_000, 1440]],
      B: [
        [0, 60_000, 600],
        [660 * 60_000, 60_000, 780],
      ],
      C: [[5, 0, 1]],
    });
  });

  it('lists nothing for times that are not integers, or that need too many runs', () => {
    const fraction = new TimeRunsBuilder(1);
    fraction.add(0, 1.5);
    expect(fraction.runs(['A'])).toBeUndefined();
    const nul = new TimeRunsBuilder(1);
    nul.add(0, Number.NaN);
    expect(nul.runs(['A'])).toBeUndefined();
    const scattered = new TimeRunsBuilder(1);
    // Squares: no two steps alike, so every value past the first two starts a run.
    for (let i = 0; i < 2 * MAX_RUNS_PER_GROUP + 2; i++) scattered.add(0, i * i);
    expect(scattered.runs(['A'])).toBeUndefined();
    const fits = new TimeRunsBuilder(1);
    for (let i = 0; i < 2 * MAX_RUNS_PER_GROUP - 2; i++) fits.add(0, i * i);
    expect(fits.runs(['A'])!.A).toHaveLength(MAX_RUNS_PER_GROUP - 1);
  });

  it('refuses runs that are not well formed, as a damaged manifest may hold', () => {
    for (const bad of [[], [[0, 60_000]], [[0, 60_000, 0]], [[0, 0.5, 2]], [['0', 60_000, 2]], [[Number.MAX_SAFE_INTEGER, 1, 3]], 'runs', [null]]) {
      expect(wellFormedRuns(bad as never)).toBeUndefined();
    }
    expect(wellFormedRuns([[120, -60, 3]])).toEqual({ count: 3, min: 0, max: 120 });
  });
});
