/** `state show`'s text: the last run's rows add up as the run summary's do (received = written + merged + rejected). */
import { describe, expect, it } from 'vitest';
import { renderPipelineState } from '../../src/cli/state/render-state.js';
import type { PipelineState } from '../../src/cli/state/read-state.js';

const state: PipelineState = {
  pipeline: 'trades',
  outputDir: 'out',
  stateDir: 'out/.state',
  keepsState: true,
  checkpoints: { path: 'out/.state/checkpoints/trades.json', updatedAt: '2026-11-20T00:00:03.000Z', runId: 'r2' },
  lastRun: {
    runId: 'r2',
    status: 'succeeded',
    startedAt: '2026-11-20T00:00:00.000Z',
    finishedAt: '2026-11-20T00:00:03.000Z',
    requests: 3,
    requestsByEndpoint: { '/quote-b-api/trade-tick': 3 },
    rows: { trade: { received: 6, written: 1, merged: 4, rejected: 1 } },
  },
  streams: [],
};

describe('state show text', () => {
  it('names the merged rows of the last run beside received, written and rejected', () => {
    expect(renderPipelineState(state)).toContain('last run r2 succeeded, 2026-11-20T00:00:00.000Z .. 2026-11-20T00:00:03.000Z: 3 requests; trade 6 received, 1 written, 4 merged, 1 rejected');
  });

  it('a run record without merged (quotelake 0.1.0) reads as before', () => {
    const old = { ...state, lastRun: { ...state.lastRun!, rows: { trade: { received: 6, written: 5, rejected: 1 } } } };
    expect(renderPipelineState(old)).toContain('; trade 6 received, 5 written, 1 rejected');
  });
});
