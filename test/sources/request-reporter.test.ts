import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { reported, requestReporter } from '../../src/sources/shared/request-reporter.js';

/** A client stand-in: only requestCounts() matters to the reporter. */
function fakeClient(): { client: ServiceClient; send: (endpoint: string, n?: number) => void } {
  const counts: Record<string, number> = {};
  return {
    client: { requestCounts: () => ({ ...counts }) } as unknown as ServiceClient,
    send: (endpoint, n = 1) => {
      counts[endpoint] = (counts[endpoint] ?? 0) + n;
    },
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('requestReporter', () => {
  it('puts each request on the stream whose call sent it, also when calls overlap', async () => {
    const { client, send } = fakeClient();
    const events = createRunEvents();
    const reporter = requestReporter(client, events);
    const a = deferred();
    const b = deferred();
    const ra = reported(reporter, a.promise, 'kline/A/1m');
    const rb = reported(reporter, b.promise, 'kline/B/1m');
    send('/k'); // a's request
    send('/k'); // b's request, sent before a's call ends
    a.resolve();
    await ra;
    // a ended while b still runs: a takes one, b's request waits for b.
    expect(events.snapshot().requestsByStream).toEqual({ 'kline/A/1m': 1 });
    b.resolve();
    await rb;
    expect(events.snapshot().requestsByStream).toEqual({ 'kline/A/1m': 1, 'kline/B/1m': 1 });
    expect(events.snapshot().requests).toEqual({ '/k': 2 });
    expect(reporter.totals).toEqual({ '/k': 2 });
  });

  it('the last call running takes what is left (retries), and failures are reported too', async () => {
    const { client, send } = fakeClient();
    const events = createRunEvents();
    const reporter = requestReporter(client, events);
    const call = (async () => {
      send('/h', 3); // one request and two retries
      throw new Error('boom');
    })();
    await expect(reported(reporter, call, 'halt/nyse')).rejects.toThrow('boom');
    expect(events.snapshot().requestsByStream).toEqual({ 'halt/nyse': 3 });
    expect(events.snapshot().requests).toEqual({ '/h': 3 });
  });
});
