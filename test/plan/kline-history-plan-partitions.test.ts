/**
 * The partitions `quotelake plan` lists for kline-history are those the run then writes: every day
 * of the bars it keeps, and no day without one (a weekend, today before the open, days already held).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import type { Checkpoint } from '../../src/core/component.js';
import { klinePartition } from '../../src/core/kline-partition.js';
import type { Interval, RawKline } from '../../src/core/records.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import { planPipeline } from '../../src/plan/index.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { drain, startWorld, type World } from '../sources/helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function pipeline(source: Record<string, unknown>): PipelineInput {
  return { name: 'p', source: source as PipelineInput['source'], transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };
}

/** Plans, then runs the source against the emulator: the planned partitions and those of the rows the run delivered. */
async function planAndRun(w: World, source: Record<string, unknown>, checkpoints: Map<string, Checkpoint> = new Map()) {
  const plan = planPipeline(pipeline(source), { plan: 'professional', now: w.clock.now(), checkpoints, registry: components });
  const { type: _type, ...rest } = source;
  const client = w.client('professional');
  const run = await drain(klineHistory.create(klineHistoryConfigSchema.parse(rest), w.env(client)), w.clock, checkpoints);
  const written = [...new Set((run.records as RawKline[]).map((r) => klinePartition(r.interval as Interval, Number(r.bar.timestamp) * 1000)))].sort();
  return { plan, written, run, sent: client.requestCounts() };
}

describe('kline-history plan partitions', () => {
  it('a stock whose newest 500 1h bars reach back months: every day they cover, no weekend, not today before the open', async () => {
    // Monday 12:00 UTC: AAPL.US has not opened today.
    world = await startWorld('2026-03-02T12:00:00.000Z');
    const { plan, written, sent } = await planAndRun(world, { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1h'], since: '2025-06-01' });
    expect(written.length).toBeGreaterThan(60);
    expect(plan.partitions).toEqual(written);
    expect(plan.partitions).not.toContain('interval=1h/year=2026/date=2026-03-02');
    expect(plan.partitions).not.toContain('interval=1h/year=2026/date=2026-02-28');
    expect(plan.requests).toEqual(sent);
  });

  it('forex across a weekend: the closed days are not planned', async () => {
    world = await startWorld('2026-03-02T12:00:00.000Z');
    const eur = await planAndRun(world, { type: 'kline-history', codes: ['EURUSD'], intervals: ['1h'], since: '2026-02-26' });
    expect(eur.plan.partitions).toEqual(eur.written);
    expect(eur.plan.requests).toEqual(eur.sent);
  });

  it('a since moved below the held bars of a stock: the days under them and the new ones, not the days already held', async () => {
    world = await startWorld('2026-02-20T21:00:00.000Z');
    const w = world;
    const first = await planAndRun(w, { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1h'], since: '2026-02-18' });
    expect(first.plan.partitions).toEqual(first.written);
    w.clock.set(Date.parse('2026-02-24T21:00:00.000Z'));
    const second = await planAndRun(w, { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1h'], since: '2026-02-10' }, first.run.checkpoints);
    expect(second.written).not.toContain('interval=1h/year=2026/date=2026-02-19');
    expect(second.plan.partitions).toEqual(second.written);
  });

  it('a stock with until: only the days up to it', async () => {
    world = await startWorld('2026-03-02T21:00:00.000Z');
    const { plan, written } = await planAndRun(world, { type: 'kline-history', codes: ['AAPL.US', '700.HK'], intervals: ['1h', '1d'], since: '2026-02-01', until: '2026-02-20' });
    expect(written.at(-1)).not.toBe('interval=1h/year=2026/date=2026-03-02');
    expect(plan.partitions).toEqual(written);
  });
});
