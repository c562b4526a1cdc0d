/**
 * The metrics as README "Metrics" tells a program to wire them, through the package's entry point,
 * against the emulator on loopback: every instrument the wiring feeds agrees with the run's manifest.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  components,
  createClient,
  createMetrics,
  createRunEvents,
  definePipeline,
  ManualClock,
  observeRun,
  requestOutcome,
  runPipeline,
  startEmulator,
} from '../../../src/index.js';
import { parseExposition, samplesOf, sumBy, valueOf } from '../../helpers/prom-text.js';

describe('metrics wired by a program, as the README shows', () => {
  it('requests, their durations, limiter waits, rows and files agree with the run', async () => {
    const clock = new ManualClock('2026-11-20T00:00:00Z');
    const emulator = await startEmulator({ clock, log: () => {} });
    const dir = await mkdtemp(join(tmpdir(), 'ql-metrics-lib-'));
    const m = createMetrics();
    const client = createClient({
      baseUrl: emulator.url,
      token: 'demo-professional',
      plan: 'professional',
      stateDir: join(dir, '.state'),
      clock,
      // The README's wiring, word for word.
      onRequest: (info) => m.request(info.endpoint, requestOutcome(info), info.durationMs),
      onAdmission: (info) => (info.admitted ? m.limiterWait(info.endpoint, info.waitMs) : m.request(info.endpoint, 'refused')),
    });
    const events = createRunEvents();
    const stopObserving = observeRun(m, events, 'kline');
    const pipeline = definePipeline({
      name: 'btc-hours',
      source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet' },
    });
    try {
      const result = await runPipeline(pipeline, { registry: components, client, outputDir: dir, events, clock });
      stopObserving();
      // Two days back from midnight, both ends held: 49 hourly bars in one request.
      expect(result.manifest.rows).toEqual({ kline: { received: 49, written: 49, merged: 0, rejected: 0 } });
      expect(result.manifest.requests).toEqual({ '/quote-b-api/kline': 1 });
      const e = parseExposition(await m.text());
      expect(valueOf(e, 'quotelake_requests_total', { endpoint: '/quote-b-api/kline', outcome: 'ok' })).toBe(1);
      expect(valueOf(e, 'quotelake_request_duration_seconds_count', { endpoint: '/quote-b-api/kline', outcome: 'ok' })).toBe(1);
      expect(valueOf(e, 'quotelake_rate_limiter_wait_seconds_count', { endpoint: '/quote-b-api/kline' })).toBe(1);
      expect(sumBy(e, 'quotelake_rows_total', 'kind')).toEqual({ received: 49, written: 49 });
      const files = result.manifest.filesCommitted;
      expect(samplesOf(e, 'quotelake_files_committed_total').map((s) => [s.labels, s.value])).toEqual([[{ dataset: 'kline', kind: 'data' }, files.length]]);
      expect(valueOf(e, 'quotelake_committed_bytes_total', { dataset: 'kline', kind: 'data' })).toBe(files.reduce((a, f) => a + f.bytes, 0));
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
