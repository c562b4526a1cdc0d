/**
 * The quota is charged for what the service can have counted (issue 15): answered requests, and
 * requests sent whose answer was lost ("unknown", said so); never for attempts that did not leave
 * (connection refused, aborted while queued). After the service's `daily limit exceeded`, nothing
 * still waiting for a slot is sent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { QuotaExhaustedError, TransportError } from '../../src/core/errors.js';
import { STUB_TOKEN as TOKEN, useStubClient } from './helpers/stub-client.js';
import { bar, fail, ok } from './helpers/stub-server.js';
import { closedPort } from '../helpers/closed-port.js';

const fixture = useStubClient('ql-accounting-');
const { setup, clientAt } = fixture;


async function quotaFile(): Promise<{ used: number; unknown?: number }> {
  return JSON.parse(await readFile(join(fixture.stateDir(), 'quota', `${tokenHash16(TOKEN)}.json`), 'utf8')) as { used: number; unknown?: number };
}

describe('quota accounting of attempts', () => {
  it('attempts that never reached a server (connection refused) are neither charged nor counted as sent', async () => {
    const port = await closedPort();
    const { client } = clientAt(`http://127.0.0.1:${port}`, { retry: { attempts: 3, random: () => 0 } });
    // Several at once: the professional plan reserves quota in blocks of 20, and every attempt of
    // every call must come back, also those failed while a sibling's failure aborts them.
    const controller = new AbortController();
    const calls = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'].map((code) =>
      client.kline({ code, klineType: 1, count: 10 }, controller.signal).catch((e: unknown) => {
        controller.abort();
        return e;
      }),
    );
    const errors = await Promise.all(calls);
    expect(errors.some((e) => e instanceof TransportError)).toBe(true);
    expect(client.requestCounts()).toEqual({});
    const outcomes = client.requestOutcomes!();
    expect(outcomes.answered).toBe(0);
    expect(outcomes.unknown).toBe(0);
    expect(outcomes.unsent).toBeGreaterThanOrEqual(3);
    expect((await client.quotaStatus()).used).toBe(0);
    await client.close();
    expect((await quotaFile()).used).toBe(0);
  });

  it('a request sent whose answer was lost is charged and counted as unknown, in the client and the quota file', async () => {
    const { client, requests } = await setup((_req, res) => {
      // The server took the request and then dropped the connection without a word.
      res.socket?.destroy();
    }, { retry: { attempts: 2, random: () => 0 } });
    const error = await client.kline({ code: 'BTCUSDT', klineType: 1, count: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(requests).toHaveLength(2);
    expect(client.requestCounts()).toEqual({ '/quote-b-api/kline': 2 });
    expect(client.requestOutcomes!()).toEqual({ answered: 0, unknown: 2, unsent: 0, rateLimited: 0, dailyLimited: 0 });
    expect(await client.quotaStatus()).toMatchObject({ used: 2, unknown: 2 });
    await client.close();
    expect(await quotaFile()).toMatchObject({ used: 2, unknown: 2 });
  });

  it('answered requests are charged and counted as answered', async () => {
    const { client } = await setup((req, res) => ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: [bar(1_767_607_200)] }));
    await client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 });
    expect(client.requestOutcomes!()).toEqual({ answered: 1, unknown: 0, unsent: 0, rateLimited: 0, dailyLimited: 0 });
    await client.close();
    expect(await quotaFile()).toMatchObject({ used: 1 });
  });

  it('after the service says "daily limit exceeded", requests waiting for a slot fail with the quota error, unsent', async () => {
    const { client, requests } = await setup((req, res) => fail(res, req.query!.trace, 429, 'daily limit exceeded'));
    // 60 calls on a plan that admits 20 a second: 40 wait for the next second when the first answer comes.
    const calls = Array.from({ length: 60 }, (_, i) => client.kline({ code: i % 2 === 0 ? 'BTCUSDT' : 'ETHUSDT', klineType: 1, count: 1 }).catch((e: unknown) => e));
    const errors = await Promise.all(calls);
    expect(errors.every((e) => e instanceof QuotaExhaustedError)).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(20);
    expect(client.requestOutcomes!().answered).toBe(requests.length);
    expect((await client.quotaStatus()).remaining).toBe(0);
    await client.close();
    // Nothing given back: the day stays closed for the next run too.
    expect((await quotaFile()).used).toBe(1_728_000);
  });
});
