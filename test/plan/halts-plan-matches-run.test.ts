/** `quotelake plan` of trading-halts names the folders the run writes, in the run's order. */
import { describe, expect, it } from 'vitest';
import { planAndRun, pipelineFile, runPartitions } from './helpers/plan-and-run.js';

describe('trading-halts: plan and run', () => {
  it('the default exchanges (sse, nyse, nasdaq): the same partitions, in the same order', async () => {
    const { file, output } = pipelineFile(['name: halts', 'source:', '  type: trading-halts', 'transforms:', '  - type: normalize-halts', 'sink:', '  type: parquet']);
    const { plan: p, run } = await planAndRun(file, { output }, '2026-11-20T12:00:00Z');
    expect(run.exitCode).toBe(0);
    const ran = runPartitions(run, 'halt');
    // Only the folders the run wrote: a year without halts has none.
    expect(p.plan.partitions.filter((f) => ran.includes(f))).toEqual(ran);
    expect(p.plan.partitions).toEqual([...p.plan.partitions].sort());
    expect(p.plan.partitions.map((f) => f.split('/')[0])).toEqual(['exchange=nasdaq', 'exchange=nasdaq', 'exchange=nyse', 'exchange=nyse', 'exchange=sse', 'exchange=sse']);
  }, 60_000);
});
