import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { reported, requestReporter } from '../../src/sources/shared/request-reporter.js';
import { useStubClient } from '../api/helpers/stub-client.js';
import { bar, json, ok } from '../api/helpers/stub-server.js';

const fixture = useStubClient('ql-reporter-');

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('requestReporter', () => {
  it('puts each request on the stream whose call sent it: overlapping calls, retries and calls started ahead', async () => {
    const holdA = deferred();
    const seen = new Map<string, number>();
    const { client } = await fixture.setup(async (req, res: ServerResponse) => {
      const code = (req.query!.data as { code: string }).code;
      const n = (seen.get(code) ?? 0) + 1;
      seen.set(code, n);
      // B's first two attempts fail (retried by the client, inside B's call); A waits until B is through.
      if (code === 'EURUSD' && n <= 2) return json(res, { error: 'busy' }, 503);
      if (code === 'BTCUSDT') await holdA.promise;
      ok(res, req.query!.trace, { code, kline_type: 1, kline_list: [bar(1767607200)] });
    });
    const events = createRunEvents();
    const reporter = requestReporter(client, events, new AbortController().signal);
    const a = reported(reporter, (signal) => client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal), 'kline/BTCUSDT/1m');
    const b = reported(reporter, (signal) => client.kline({ code: 'EURUSD', klineType: 1, count: 1 }, signal), 'kline/EURUSD/1m');
    await b;
    // B ended first with its three attempts; A's request is on the wire and already A's.
    expect(events.snapshot().requestsByStream).toEqual({ 'kline/BTCUSDT/1m': 1, 'kline/EURUSD/1m': 3 });
    holdA.resolve();
    await a;
    expect(events.snapshot().requestsByStream).toEqual({ 'kline/BTCUSDT/1m': 1, 'kline/EURUSD/1m': 3 });
    expect(events.snapshot().requests).toEqual({ '/quote-b-api/kline': 4 });
    expect(reporter.totals).toEqual(client.requestCounts());
    await client.close();
  });

  it('a sent attempt that goes again (429, 503) is one request more than planned: the stream is never done before its last is sent', async () => {
    let n = 0;
    const { client } = await fixture.setup((req, res) => {
      n++;
      if (n === 1) return json(res, { ret: 429, msg: 'rate limit', data: {} });
      if (n === 2) return json(res, { error: 'busy' }, 503);
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: [bar(1767607200)] });
    });
    const events = createRunEvents();
    const plans: number[] = [];
    events.on('planned', (p) => plans.push(p.requests));
    const reporter = requestReporter(client, events, new AbortController().signal);
    const s = 'kline/BTCUSDT/1m';
    reporter.plan(s, 2);
    for (let i = 0; i < 2; i++) await reported(reporter, (signal) => client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal), s);
    // The 429 and the 503 each added the attempt after them; the plan met what was sent.
    expect(plans).toEqual([2, 3, 4]);
    expect(events.snapshot().requestsByStream[s]).toBe(4);
    // A re-plan keeps them: 4 sent, none to come.
    reporter.replan(s, 0);
    expect(events.snapshot().planned[s]).toBe(4);
    await client.close();
  });

  it('re-plans: the plan grows with what is left, never below the start plan until the stream finishes', async () => {
    const { client } = await fixture.setup((req, res) => ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: [bar(1767607200)] }));
    const events = createRunEvents();
    const reporter = requestReporter(client, events, new AbortController().signal);
    const s = 'kline/BTCUSDT/1m';
    reporter.plan(s, 3);
    for (let i = 0; i < 2; i++) await reported(reporter, (signal) => client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal), s);
    reporter.replan(s, 4); // short pages: 2 sent, 4 to come
    expect(events.snapshot().planned[s]).toBe(6);
    reporter.replan(s, 0);
    expect(events.snapshot().planned[s]).toBe(3);
    reporter.finish(s); // the walk ended early (history begins later than planned)
    expect(events.snapshot().planned[s]).toBe(2);
    expect(reporter.sent(s)).toBe(2);
    await client.close();
  });

  it('two runs on one client (a worker\'s concurrent slices): each counts its own requests, none of the other\'s', async () => {
    const holdA = deferred();
    const { client } = await fixture.setup(async (req, res: ServerResponse) => {
      const code = (req.query!.data as { code: string }).code;
      if (code === 'BTCUSDT') await holdA.promise;
      ok(res, req.query!.trace, { code, kline_type: 1, kline_list: [bar(1767607200)] });
    });
    const [eventsA, eventsB] = [createRunEvents(), createRunEvents()];
    const [a, b] = [requestReporter(client, eventsA, new AbortController().signal), requestReporter(client, eventsB, new AbortController().signal)];
    const slow = reported(a, (signal) => client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }, signal), 'kline/BTCUSDT/1m');
    // B sends three while A's one is on the wire; A's call ends after them.
    for (let i = 0; i < 3; i++) await reported(b, (signal) => client.kline({ code: 'EURUSD', klineType: 1, count: 1 }, signal), 'kline/EURUSD/1m');
    holdA.resolve();
    await slow;
    expect(eventsA.snapshot().requests).toEqual({ '/quote-b-api/kline': 1 });
    expect(eventsB.snapshot().requests).toEqual({ '/quote-b-api/kline': 3 });
    expect(client.unscopedRequestCounts?.()).toEqual({});
    expect(client.requestCounts()).toEqual({ '/quote-b-api/kline': 4 });
    await client.close();
  });

  it('a client that knows no scopes: its requests still count, without a stream', async () => {
    const counts: Record<string, number> = {};
    const client = { requestCounts: () => ({ ...counts }) } as unknown as ServiceClient;
    const events = createRunEvents();
    const reporter = requestReporter(client, events, new AbortController().signal);
    await expect(
      reported(reporter, async () => {
        counts['/h'] = 3;
        throw new Error('boom');
      }, 'halt/nyse'),
    ).rejects.toThrow('boom');
    expect(events.snapshot().requests).toEqual({ '/h': 3 });
    expect(events.snapshot().requestsByStream).toEqual({});
  });
});
