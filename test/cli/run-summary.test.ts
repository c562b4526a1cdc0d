/** The summary's accounting lines, the empty-work notes (issue 15) and the 429 note, on fixed values. */
import { describe, expect, it } from 'vitest';
import { emptyWorkNote } from '../../src/cli/run-job.js';
import { rateLimitNote } from '../../src/cli/rate-limit-note.js';
import { renderSummary, type RunSummary } from '../../src/cli/run-summary.js';
import { colors } from '../../src/cli/colors.js';
import { progressFigures } from '../../src/cli/progress/progress-figures.js';
import { renderFrame } from '../../src/cli/progress/progress-frame.js';
import { createRunEvents } from '../../src/runtime/run-events.js';

const NOW = Date.parse('2026-11-20T00:00:00Z');

function summary(over: Partial<RunSummary>): RunSummary {
  return {
    pipeline: 'p',
    file: 'p.yaml',
    status: 'succeeded',
    exitCode: 0,
    startedAt: '2026-11-20T00:00:00.000Z',
    finishedAt: '2026-11-20T00:00:01.000Z',
    durationMs: 1000,
    service: { embedded: true, plan: 'professional', baseUrl: 'http://127.0.0.1:1' },
    output: { dir: 'out', stateDir: 'out/.state', format: 'parquet' },
    requests: { '/quote-b-api/kline': 3 },
    requestsTotal: 3,
    rows: { kline: { received: 10, written: 4, merged: 5, rejected: 1 } },
    files: { count: 1, bytes: 100, paths: ['kline/a.parquet'] },
    rejected: 1,
    rejectedTo: 'out/_rejected/',
    quota: { used: 3, limit: 1000, left: 997 },
    notes: [],
    ...over,
  };
}

describe('renderSummary', () => {
  it('rows as a sum, where rejected records went, requests with lost and unsent attempts', () => {
    const text = renderSummary(summary({ requestOutcomes: { answered: 1, unknown: 2, unsent: 4 }, quota: { used: 3, limit: 1000, left: 997, unknown: 2 } }));
    expect(text).toMatch(/rows kline\s+10 received = 4 written \(new\) \+ 5 merged \(key already held\) \+ 1 rejected\n/);
    expect(text).toMatch(/rejected\s+1 records, diverted to out\/_rejected\/\n/);
    expect(text).toMatch(/requests\s+3 sent; 2 with the answer lost \(charged to the quota\), 4 attempts never sent \(no connection; not charged\)\n/);
    expect(text).toContain("997 of 1,000 today (2 of today's use had the answer lost: counted)");
  });

  it('requests refused with 429 are said among the requests, and the note follows from the counts', () => {
    const text = renderSummary(summary({ requestsTotal: 30, requestOutcomes: { answered: 30, unknown: 0, unsent: 0, rateLimited: 24 } }));
    expect(text).toMatch(/requests\s+30 sent; 24 refused with 429 rate limit \(not charged; sent again\)\n/);
    // A few spurious 429s (a flaky service) are not a pattern: under 3, or under a tenth of the answers.
    expect(rateLimitNote('professional', { answered: 30, unknown: 0, unsent: 0, rateLimited: 2 })).toBeUndefined();
    expect(rateLimitNote('professional', { answered: 31, unknown: 0, unsent: 0, rateLimited: 3 })).toBeUndefined();
    expect(rateLimitNote('basic', { answered: 30, unknown: 0, unsent: 0, rateLimited: 3 })).toMatch(
      /^the service refused 3 of 30 answered requests with 429 \(rate limit\) although they kept to the basic plan's limits; .* set service\.plan or --plan to it; otherwise another process is using the same token$/,
    );
    expect(rateLimitNote('basic', undefined)).toBeUndefined();
  });

  it('records that went to stdout are not said to be files under the output folder', () => {
    const out = { dir: 'out', stateDir: 'out/.state', format: 'ndjson', toStdout: true };
    expect(renderSummary(summary({ output: out, files: { count: 0, bytes: 0, paths: [] } }))).toMatch(/files\s+none: the records went to stdout as ndjson\n/);
    const diverted = summary({ output: out, files: { count: 1, bytes: 300, paths: ['_rejected/trade/date=2026-11-20/rejected-r1.ndjson'] } });
    expect(renderSummary(diverted)).toMatch(/files\s+1 of rejected records \(300 B\) under out; the records went to stdout as ndjson\n/);
  });

  it('files of diverted records are counted apart from the sink format', () => {
    expect(renderSummary(summary({}))).toMatch(/files\s+1 written \(100 B\) under out as parquet\n/);
    const paths = ['kline/a.parquet', '_rejected/kline/date=2026-11-20/rejected-r1.ndjson'];
    expect(renderSummary(summary({ files: { count: 2, bytes: 2048, paths } }))).toMatch(/files\s+1 written as parquet \+ 1 of rejected records \(2\.0 KiB in all\) under out\n/);
  });

  it('dropped records, and rows a failed run received after its last commit', () => {
    const text = renderSummary(summary({ status: 'failed', exitCode: 1, rejectedTo: 'dropped', rows: { kline: { received: 20, written: 4, merged: 5, rejected: 1 } } }));
    expect(text).toMatch(/rejected\s+1 records, dropped \(onReject: drop; the log names each reason\)/);
    expect(text).toContain('20 received = 4 written (new) + 5 merged (key already held) + 1 rejected + 10 not committed (the next run fetches them again)');
    // A snapshot is of its moment: no run can fetch it again, and the summary does not say one will.
    const trades = renderSummary(summary({ status: 'failed', exitCode: 1, rows: { trade: { received: 7, written: 5, merged: 0, rejected: 0 } } }));
    expect(trades).toContain('7 received = 5 written (new) + 0 merged (key already held) + 0 rejected + 2 not committed (lost: a snapshot is of its moment and cannot be fetched again)');
  });

  it('a stopped run of an output without state is not called resumable', () => {
    expect(renderSummary(summary({ status: 'interrupted', exitCode: 130 }))).toMatch(/status\s+interrupted \(resumable\) \(exit 130\)\n/);
    expect(renderSummary(summary({ status: 'interrupted', exitCode: 130, resumable: false }))).toMatch(
      /status\s+interrupted \(not resumable: this output keeps no state, so the next run starts over\) \(exit 130\)\n/,
    );
    expect(renderSummary(summary({ status: 'quota-exhausted', exitCode: 75, resumable: false }))).toMatch(/status\s+stopped at the daily quota \(not resumable: this output keeps no state, so the next run starts over\) \(exit 75\)\n/);
    // A polling source: the next run takes its rounds anew, whatever its output keeps.
    expect(renderSummary(summary({ status: 'interrupted', exitCode: 130, resumable: false, notResumedBecause: 'polling' }))).toMatch(
      /status\s+interrupted \(not resumed: a polling run takes all its rounds anew; the rounds committed are kept\) \(exit 130\)\n/,
    );
    // Other statuses read the same either way.
    expect(renderSummary(summary({ status: 'failed', exitCode: 1, resumable: false }))).toMatch(/status\s+failed \(exit 1\)\n/);
  });
});

describe('emptyWorkNote', () => {
  const job = (source: Record<string, unknown>) => ({ pipeline: { source: { type: 'kline-history', ...source } } }) as never;
  const zero = { kline: { received: 0, written: 0, merged: 0, rejected: 0 } };

  it('says why a run sent nothing', () => {
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'], since: '2026-12-01' }), 0, zero, undefined, NOW)).toBe(
      'nothing to do yet: since (2026-12-01 = 2026-12-01T00:00:00Z) is in the future (now 2026-11-20T00:00:00Z); no request was sent',
    );
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'], since: '2026-11-10', until: '2026-11-09' }), 0, zero, undefined, NOW)).toBe(
      'nothing to do: until (2026-11-09T00:00:00Z) is before since (2026-11-10T00:00:00Z); no request was sent',
    );
    // Both bounds are inclusive: equal, they hold a bar; a run that found none there gets the general note.
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'], since: '2026-11-10', until: '2026-11-10' }), 0, zero, undefined, NOW)).toBe('nothing to do: no request was sent and no row received');
    expect(emptyWorkNote(job({ codes: [] }), 0, zero, undefined, NOW)).toBe('nothing to do: the pipeline lists no codes');
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'], since: '7d' }), 0, zero, new Map([['kline/BTCUSDT/1m', { stream: 'kline/BTCUSDT/1m', position: {} }]]) as never, NOW)).toBe(
      'nothing new since the last checkpoint: every series is up to date; no request was sent',
    );
  });

  it('is silent when the run sent or received anything', () => {
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'], since: '2026-12-01' }), 1, zero, undefined, NOW)).toBeUndefined();
    expect(emptyWorkNote(job({ codes: ['BTCUSDT'] }), 0, { kline: { received: 2, written: 2, merged: 0, rejected: 0 } }, undefined, NOW)).toBeUndefined();
  });
});

describe('the progress frame', () => {
  it('shows merged rows when there are some, so its counts add up like the summary', () => {
    const events = createRunEvents();
    events.rows('kline', 'received', 10);
    events.rows('kline', 'written', 4);
    events.rows('kline', 'merged', 5);
    events.rows('kline', 'rejected', 1);
    const lines = renderFrame(progressFigures(events, NOW, NOW + 1000, undefined), { columns: 120, colors: colors(false) });
    expect(lines.at(-1)).toBe(' kline rows: 10 received | 4 written | 5 merged | 1 rejected');
  });
});
