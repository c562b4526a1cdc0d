/**
 * The demo pipeline on any day: run through the runtime at frozen instants that stress the
 * calendar (a Monday morning, a Saturday, both US and both EU DST change days, US holidays), it
 * succeeds, explains every gap, holds a series for every code and interval the calendar has a bar
 * for, and says a stock's 1m history cannot be reached exactly when the three days hold more than
 * one request's 500 bars.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanName } from '../../src/api/index.js';
import { findProduct } from '../../src/catalog/index.js';
import { components } from '../../src/components.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import { coverageOfOutput } from '../../src/coverage/index.js';
import type { Interval } from '../../src/core/records.js';
import { countBars } from '../../src/catalog/bar-grid.js';
import { run } from '../sources/helpers/run.js';
import { startWorld, type World } from '../sources/helpers/world.js';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yaml', import.meta.url));
const DAY_MS = 86_400_000;

const INSTANTS = [
  ['a Monday morning before the US open', '2026-11-23T13:00:00.000Z'],
  ['a Saturday', '2026-11-21T15:00:00.000Z'],
  ['the US spring DST change', '2026-03-08T07:30:00.000Z'],
  ['the EU spring DST change', '2026-03-29T01:30:00.000Z'],
  ['the US autumn DST change', '2026-11-01T06:30:00.000Z'],
  ['US Independence Day, observed', '2026-07-03T18:00:00.000Z'],
  ['New Year\'s Day', '2027-01-01T16:00:00.000Z'],
] as const;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('demo.yaml at any date', () => {
  it.each(INSTANTS)('%s (%s)', async (_what, instant) => {
    world = await startWorld(instant);
    const pipeline = await loadPipeline(DEMO, components);
    const out = join(world.dir, 'demo');
    const nowMs = world.clock.now();
    const result = await run(pipeline, { client: world.client((pipeline.service?.plan ?? 'professional') as PlanName), clock: world.clock, outputDir: out });
    expect(result.status).toBe('succeeded');
    const report = await coverageOfOutput(out);
    expect(report.totals.unexplained).toBe(0);
    const source = pipeline.source as unknown as { codes: string[]; intervals: Interval[] };
    const bars = (code: string, interval: Interval) => countBars(findProduct(code)!, interval, nowMs - 3 * DAY_MS, nowMs + 1, nowMs);
    const expected = source.codes.flatMap((code) => source.intervals.filter((i) => bars(code, i) > 0).map((i) => `${code} ${i}`));
    expect(report.series.map((s) => `${s.code} ${s.interval}`).sort()).toEqual(expected.sort());
    const notes = result.events.snapshot().notes;
    for (const code of source.codes.filter((c) => !findProduct(c)!.endTimestampSupported)) {
      expect(notes.some((n) => n.startsWith(`kline ${code} 1m: since`) && n.includes('cannot be reached')), code).toBe(bars(code, '1m') > 500);
    }
  }, 60_000);
});
