/** The slices of an enqueue: each series from its own first cell, so no bar before `since` is lost to a listing date. */
import { describe, expect, it } from 'vitest';
import type { PipelineJob } from '../../src/cli/pipeline-job.js';
import { jobSlices } from '../../src/cli/queue/job-slices.js';
import { components } from '../../src/components.js';
import { validatePipeline } from '../../src/config/parse-pipeline.js';

const NOW = Date.parse('2024-09-10T12:00:00Z');

function job(intervals: string[], since: string): PipelineJob {
  const pipeline = validatePipeline({ name: 'ton', source: { type: 'kline-history', codes: ['TONUSDT'], intervals, since }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } }, { registry: components });
  return { ref: { display: 'ton.yaml' }, pipeline, resolved: {} } as unknown as PipelineJob;
}

describe('jobSlices', () => {
  it('a week or month that opens before a mid-week listing starts its series: the first slice reaches back to it', () => {
    // TONUSDT was listed on Thursday 2024-08-08; since is long before.
    const slices = jobSlices(job(['1d', '1w', '1mo'], '2024-01-01'), { pipeline: 'ton.yaml', pipelinePath: '/srv/ton.yaml' }, { nowMs: NOW, spanFromMs: NOW });
    const firstFrom = (interval: string) => new Date(Math.min(...slices.filter((s) => s.interval === interval).map((s) => s.fromMs))).toISOString();
    expect(firstFrom('1d')).toBe('2024-08-08T00:00:00.000Z');
    expect(firstFrom('1w')).toBe('2024-08-05T00:00:00.000Z');
    expect(firstFrom('1mo')).toBe('2024-08-01T00:00:00.000Z');
  });
});
