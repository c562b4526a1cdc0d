/**
 * The instruments and their API: outcomes and 429s, limiter waits in seconds, rows and files of a
 * run's events, quota per token under its hash (set, or read at each collection), durations, and
 * process metrics only when asked for.
 */
import { describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../../src/api/index.js';
import { createMetrics, observeRun, requestOutcome, tokenLabel } from '../../../src/runtime/metrics/index.js';
import { createRunEvents } from '../../../src/runtime/run-events.js';
import { parseExposition, samplesOf, valueOf } from '../../helpers/prom-text.js';

const TOKEN = 'tok-unit-metrics-8c1d55aa';

describe('requestOutcome', () => {
  it('maps the client\'s report: 5xx without a meaningful answer is the server\'s, an error envelope is an api error', () => {
    expect(requestOutcome({ outcome: 'ok', status: 200 })).toBe('ok');
    expect(requestOutcome({ outcome: 'rate-limited', status: 200 })).toBe('rate_limited');
    expect(requestOutcome({ outcome: 'quota-exhausted', status: 200 })).toBe('quota_exhausted');
    expect(requestOutcome({ outcome: 'transport-error', status: 503 })).toBe('server_error');
    expect(requestOutcome({ outcome: 'transport-error' })).toBe('transport_error');
    // A suspension error is HTTP 500 whatever its cause (S5): the service meant it.
    expect(requestOutcome({ outcome: 'api-error', status: 500 })).toBe('api_error');
    expect(requestOutcome({ outcome: 'api-error', status: 200 })).toBe('api_error');
    expect(requestOutcome({ outcome: 'aborted' })).toBe('aborted');
  });
});

describe('tokenLabel', () => {
  it('is the quota file\'s hash of the token; a "hash" that is not one is refused, not published', () => {
    expect(tokenLabel({ token: TOKEN })).toBe(tokenHash16(TOKEN));
    expect(tokenLabel({ hash: tokenHash16(TOKEN) })).toBe(tokenHash16(TOKEN));
    expect(() => tokenLabel({ hash: TOKEN })).toThrow(/16 lowercase hex/);
    expect(() => tokenLabel({ hash: TOKEN })).not.toThrow(TOKEN);
  });
});

describe('createMetrics', () => {
  it('counts attempts by endpoint and outcome, and 429s by reason', async () => {
    const m = createMetrics();
    m.request('/quote-b-api/kline', 'ok');
    m.request('/quote-b-api/kline', 'ok');
    m.request('/quote-b-api/kline', 'rate_limited');
    m.request('/quote-b-api/kline', 'quota_exhausted');
    m.request('/api/suspension/sse', 'refused');
    const e = parseExposition(await m.text());
    expect(valueOf(e, 'quotelake_requests_total', { endpoint: '/quote-b-api/kline', outcome: 'ok' })).toBe(2);
    expect(valueOf(e, 'quotelake_requests_total', { endpoint: '/api/suspension/sse', outcome: 'refused' })).toBe(1);
    expect(valueOf(e, 'quotelake_rate_limited_total', { endpoint: '/quote-b-api/kline', reason: 'window' })).toBe(1);
    expect(valueOf(e, 'quotelake_rate_limited_total', { endpoint: '/quote-b-api/kline', reason: 'daily' })).toBe(1);
    expect(samplesOf(e, 'quotelake_rate_limited_total', { endpoint: '/api/suspension/sse' })).toEqual([]);
    expect(e.types.get('quotelake_requests_total')).toBe('counter');
    // No duration given (refused, never sent): no latency observed.
    expect(samplesOf(e, 'quotelake_request_duration_seconds_count')).toEqual([]);
  });

  it('observes request latency in seconds by endpoint and outcome', async () => {
    const m = createMetrics();
    m.request('/quote-b-api/kline', 'ok', 40);
    m.request('/quote-b-api/kline', 'ok', 1_200);
    m.request('/quote-b-api/kline', 'server_error', 7);
    const e = parseExposition(await m.text());
    const ok = { endpoint: '/quote-b-api/kline', outcome: 'ok' };
    expect(valueOf(e, 'quotelake_request_duration_seconds_count', ok)).toBe(2);
    expect(valueOf(e, 'quotelake_request_duration_seconds_sum', ok)).toBe(1.24);
    expect(valueOf(e, 'quotelake_request_duration_seconds_bucket', { ...ok, le: '0.05' })).toBe(1);
    expect(valueOf(e, 'quotelake_request_duration_seconds_bucket', { ...ok, le: '2.5' })).toBe(2);
    expect(valueOf(e, 'quotelake_request_duration_seconds_count', { endpoint: '/quote-b-api/kline', outcome: 'server_error' })).toBe(1);
  });

  it('observes limiter waits in seconds', async () => {
    const m = createMetrics();
    m.limiterWait('/quote-b-api/kline', 0);
    m.limiterWait('/quote-b-api/kline', 10_000);
    m.limiterWait('/quote-b-api/kline', 250);
    const e = parseExposition(await m.text());
    const at = { endpoint: '/quote-b-api/kline' };
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_count', at)).toBe(3);
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_sum', at)).toBe(10.25);
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_bucket', { ...at, le: '0.001' })).toBe(1);
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_bucket', { ...at, le: '0.25' })).toBe(2);
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_bucket', { ...at, le: '5' })).toBe(2);
    expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_bucket', { ...at, le: '10' })).toBe(3);
    expect(e.types.get('quotelake_rate_limiter_wait_seconds')).toBe('histogram');
  });

  it('takes rows and committed files from a run\'s events, diverted records apart, until unsubscribed', async () => {
    const m = createMetrics();
    const events = createRunEvents();
    const off = observeRun(m, events, 'kline');
    events.rows('kline', 'received', 120);
    events.rows('kline', 'written', 100);
    events.rows('kline', 'merged', 15);
    events.rows('kline', 'rejected', 5);
    events.committed([
      { path: 'kline/interval=1m/year=2026/date=2026-11-19/part-a.parquet', rows: 60, bytes: 1000 },
      { path: 'kline/interval=1m/year=2026/date=2026-11-20/part-b.parquet', rows: 55, bytes: 900 },
    ]);
    events.committed([{ path: '_rejected/kline/date=2026-11-20/rejected-x.ndjson', rows: 5, bytes: 300 }]);
    off();
    events.rows('kline', 'received', 1);
    const e = parseExposition(await m.text());
    expect(valueOf(e, 'quotelake_rows_total', { dataset: 'kline', kind: 'received' })).toBe(120);
    expect(valueOf(e, 'quotelake_rows_total', { dataset: 'kline', kind: 'written' })).toBe(100);
    expect(valueOf(e, 'quotelake_rows_total', { dataset: 'kline', kind: 'merged' })).toBe(15);
    expect(valueOf(e, 'quotelake_rows_total', { dataset: 'kline', kind: 'rejected' })).toBe(5);
    expect(valueOf(e, 'quotelake_files_committed_total', { dataset: 'kline', kind: 'data' })).toBe(2);
    expect(valueOf(e, 'quotelake_committed_bytes_total', { dataset: 'kline', kind: 'data' })).toBe(1900);
    expect(valueOf(e, 'quotelake_files_committed_total', { dataset: 'kline', kind: 'rejected' })).toBe(1);
    expect(valueOf(e, 'quotelake_committed_bytes_total', { dataset: 'kline', kind: 'rejected' })).toBe(300);
  });

  it('quota per token under its hash; a tracked token is read at each collection, then keeps its last figures', async () => {
    const m = createMetrics();
    m.quota({ token: TOKEN }, 'basic', { used: 10, limit: 100_000, remaining: 99_990, resetAt: new Date('2026-11-21T00:00:00Z') });
    let used = 0;
    let reads = 0;
    const other = 'tok-unit-other-4e2a77b1';
    const untrack = m.trackQuota({ token: other }, 'professional', async () => {
      reads++;
      return { used, limit: Number.POSITIVE_INFINITY, remaining: Number.POSITIVE_INFINITY };
    });
    used = 5;
    let text = await m.text();
    let e = parseExposition(text);
    const a = { token: tokenHash16(TOKEN), plan: 'basic' };
    const b = { token: tokenHash16(other), plan: 'professional' };
    expect(valueOf(e, 'quotelake_quota_used_requests', a)).toBe(10);
    expect(valueOf(e, 'quotelake_quota_left_requests', a)).toBe(99_990);
    expect(valueOf(e, 'quotelake_quota_limit_requests', a)).toBe(100_000);
    expect(valueOf(e, 'quotelake_quota_reset_timestamp_seconds', a)).toBe(Date.parse('2026-11-21T00:00:00Z') / 1000);
    expect(valueOf(e, 'quotelake_quota_used_requests', b)).toBe(5);
    // No daily cap: +Inf, as Prometheus writes it.
    expect(text).toContain(`quotelake_quota_limit_requests{token="${tokenHash16(other)}",plan="professional"} +Inf`);
    // One read per collection for the four gauges.
    expect(reads).toBe(1);
    used = 7;
    e = parseExposition(await m.text());
    expect(valueOf(e, 'quotelake_quota_used_requests', b)).toBe(7);
    untrack();
    used = 9;
    text = await m.text();
    e = parseExposition(text);
    expect(valueOf(e, 'quotelake_quota_used_requests', b)).toBe(7);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(other);
  });

  it('two runs tracking one token: the quota stays tracked until both have ended', async () => {
    const m = createMetrics();
    let used = 1;
    const read = async () => ({ used, limit: 100, remaining: 100 - used });
    const first = m.trackQuota({ token: TOKEN }, 'basic', read);
    const second = m.trackQuota({ token: TOKEN }, 'basic', read);
    first();
    used = 2;
    const at = { token: tokenHash16(TOKEN), plan: 'basic' };
    expect(valueOf(parseExposition(await m.text()), 'quotelake_quota_used_requests', at)).toBe(2);
    second();
    used = 3;
    expect(valueOf(parseExposition(await m.text()), 'quotelake_quota_used_requests', at)).toBe(2);
  });

  it('a tracked quota that cannot be read keeps its figures and does not fail the collection', async () => {
    const m = createMetrics();
    let fail = false;
    m.trackQuota({ token: TOKEN }, 'basic', async () => {
      if (fail) throw new Error('quota file unreadable');
      return { used: 3, limit: 10, remaining: 7 };
    });
    await m.text();
    fail = true;
    const e = parseExposition(await m.text());
    expect(valueOf(e, 'quotelake_quota_used_requests', { token: tokenHash16(TOKEN), plan: 'basic' })).toBe(3);
  });

  it('run and slice durations in seconds by pipeline and status', async () => {
    const m = createMetrics();
    m.runFinished('kline-backfill', 'succeeded', 90_500);
    m.runFinished('kline-backfill', 'quota-exhausted', 1_000);
    m.sliceFinished('kline-backfill', 'completed', 12_000);
    m.sliceFinished('kline-backfill', 'completed', 3_000);
    const e = parseExposition(await m.text());
    expect(valueOf(e, 'quotelake_run_duration_seconds_sum', { pipeline: 'kline-backfill', status: 'succeeded' })).toBe(90.5);
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', { pipeline: 'kline-backfill', status: 'quota-exhausted' })).toBe(1);
    expect(valueOf(e, 'quotelake_slice_duration_seconds_sum', { pipeline: 'kline-backfill', status: 'completed' })).toBe(15);
    expect(valueOf(e, 'quotelake_slice_duration_seconds_count', { pipeline: 'kline-backfill', status: 'completed' })).toBe(2);
  });

  it('the HELP lines say what README "Metrics" says: which answers count as rate limits, what a slice is', async () => {
    const help = new Map(
      (await createMetrics().text())
        .split('\n')
        .filter((l) => l.startsWith('# HELP '))
        .map((l) => {
          const [name, ...words] = l.slice('# HELP '.length).split(' ');
          return [name!, words.join(' ')] as const;
        }),
    );
    // An HTTP 429 status is a failing 4xx answer (api_error), not one of these.
    expect(help.get('quotelake_rate_limited_total')).toBe(
      'Answers saying "rate limit" (ret 429, or a suspension endpoint\'s HTTP 500 rate-limit error) by endpoint; reason window (per-second/minute limit) or daily (quota used up)',
    );
    expect(help.get('quotelake_slice_duration_seconds')).toBe('Queue slices (codes x interval x partition) run by a worker, by pipeline and status (done, quota, released, failed): wall time from start to end');
  });

  it('process metrics only when asked for; every other name has the quotelake_ prefix; registries are separate', async () => {
    const plain = parseExposition(await createMetrics().text());
    expect(plain.samples).toEqual([]);
    expect([...plain.types.keys()].every((n) => n.startsWith('quotelake_'))).toBe(true);
    const withProcess = createMetrics({ processMetrics: true });
    const e = parseExposition(await withProcess.text());
    expect(samplesOf(e, 'process_resident_memory_bytes').length + samplesOf(e, 'process_cpu_seconds_total').length).toBeGreaterThan(0);
    expect(samplesOf(e, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    withProcess.registry.clear();
  });
});
