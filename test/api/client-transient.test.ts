/**
 * R3 of decisions.md: transient failures are retried with backoff inside the plan's limits,
 * permanent ones fail at once, Retry-After is honoured in both forms, and a connection that was
 * never made is charged to no window and no quota.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/api/client.js';
import { ApiError, TransportError } from '../../src/core/errors.js';
import { environmentErrorOf, networkCodeMayPass } from '../../src/core/environment-error.js';
import { STUB_T0 as T0, STUB_TOKEN as TOKEN, useStubClient } from './helpers/stub-client.js';
import { bar, fail, json, ok } from './helpers/stub-server.js';
import { closedPort } from '../helpers/closed-port.js';

const EMPTY_HALTS = { success: true, timestamp: '2026-01-05T10:00:00', totalCount: 0, data: [] };

const { setup, clientAt, closeStub } = useStubClient('ql-transient-');


describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates; 0, past dates and garbage mean "use the backoff"', () => {
    expect(retryAfterMs('3', T0)).toBe(3000);
    expect(retryAfterMs(' 120 ', T0)).toBe(120_000);
    expect(retryAfterMs(new Date(T0 + 7000).toUTCString(), T0)).toBe(7000);
    expect(retryAfterMs('0', T0)).toBeUndefined();
    expect(retryAfterMs(new Date(T0 - 60_000).toUTCString(), T0)).toBeUndefined();
    expect(retryAfterMs('soon', T0)).toBeUndefined();
    expect(retryAfterMs(undefined, T0)).toBeUndefined();
  });

  it('a 503 with Retry-After in seconds waits at least that long before the next attempt', async () => {
    let n = 0;
    const { client, infos } = await setup((req, res) => {
      if (++n === 1) {
        res.setHeader('retry-after', '4');
        return json(res, { error: 'busy' }, 503);
      }
      ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [bar(60)] });
    });
    const result = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(result.bars).toHaveLength(1);
    expect(infos.map((i) => i.outcome)).toEqual(['transport-error', 'ok']);
    expect(infos[1]!.sentAt - infos[0]!.sentAt).toBeGreaterThanOrEqual(4000);
    await client.close();
  });

  it('a Retry-After longer than the retry budget (service.retry.maxTotalMs) fails at once, saying what was asked and when to run again', async () => {
    const { client, infos } = await setup((_req, res) => {
      res.setHeader('retry-after', '400');
      return json(res, { error: 'busy' }, 503);
    });
    const failure = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
    expect(infos.map((i) => i.outcome)).toEqual(['transport-error']);
    expect(failure).toMatchObject({
      code: 'QL_RETRY_AFTER',
      message: expect.stringMatching(
        /^\/quote-b-api\/kline: HTTP 503 \(server fault, trace \S+\); the service asked for a wait of 400 s \(Retry-After\), longer than the 300 s left of this request's retry budget \(service\.retry\.maxTotalMs\)$/,
      ),
      hint: `run the same command again after ${new Date(T0 + 400_000).toISOString()} (it resumes), or raise service.retry.maxTotalMs to wait for it`,
    });
    expect((failure as Error).cause).toBeInstanceOf(TransportError);
    await client.close();
  });

  it('a ret 429 with an HTTP-date Retry-After and no trace echoed holds admissions until then', async () => {
    let n = 0;
    const { client, infos, clock } = await setup((req, res) => {
      if (++n === 1) {
        res.setHeader('retry-after', new Date(clock.now() + 5000).toUTCString());
        return json(res, { ret: 429, msg: 'rate limit', data: {} });
      }
      ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [] });
    });
    await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(infos.map((i) => i.outcome)).toEqual(['rate-limited', 'ok']);
    expect(infos[1]!.sentAt - T0).toBeGreaterThanOrEqual(5000);
    // A 429 counts toward no quota (L2), and is counted apart among the answers.
    expect((await client.quotaStatus()).used).toBe(1);
    expect(client.requestOutcomes!()).toEqual({ answered: 2, unknown: 0, unsent: 0, rateLimited: 1, dailyLimited: 0 });
    await client.close();
  });
});

describe('suspension errors (all HTTP 500, S5)', () => {
  it('"temporarily unavailable" is retried after the 1-per-minute window, then delivers', async () => {
    let n = 0;
    const { client, infos } = await setup((_req, res) => {
      if (++n === 1) return json(res, { success: false, error: 'service temporarily unavailable, please try again later' }, 500);
      return json(res, EMPTY_HALTS);
    });
    const result = await client.halts('sse');
    expect(result.totalCount).toBe(0);
    expect(infos.map((i) => i.outcome)).toEqual(['api-error', 'ok']);
    // The retry waited for its slot: one request per minute per exchange endpoint (L5).
    expect(infos[1]!.sentAt - infos[0]!.sentAt).toBeGreaterThanOrEqual(60_000);
    await client.close();
  });

  it('a suspension endpoint busy seven times in a row still delivers (10 attempts, a minute apart)', async () => {
    let n = 0;
    const { client, infos } = await setup((_req, res) => {
      if (++n <= 7) return json(res, { success: false, error: 'server busy' }, 500);
      return json(res, EMPTY_HALTS);
    });
    expect((await client.halts('nasdaq')).success).toBe(true);
    expect(infos.map((i) => i.outcome)).toEqual([...Array(7).fill('api-error'), 'ok']);
    for (let i = 1; i < infos.length; i++) expect(infos[i]!.sentAt - infos[i - 1]!.sentAt).toBeGreaterThanOrEqual(60_000);
    await client.close();
  });

  it('an error naming the token fails at once with endpoint, status and message', async () => {
    const { client, requests } = await setup((_req, res) => json(res, { success: false, error: 'token invalid' }, 500));
    const error = await client.halts('nyse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 500, endpoint: '/api/suspension/nyse', serviceMessage: 'token invalid', retryable: false });
    expect((error as Error).message).toBe('/api/suspension/nyse: HTTP 500 token invalid');
    expect(requests).toHaveLength(1);
    await client.close();
  });

  it('permanent market errors (401, 600, 604, 605) are sent once', async () => {
    for (const [ret, msg] of [[401, 'token invalid'], [600, 'code invalid'], [604, 'code unauthorized'], [605, 'too many requests']] as const) {
      const { client, requests } = await setup((req, res) => fail(res, req.query!.trace, ret, msg));
      const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ ret, endpoint: '/quote-b-api/kline' });
      expect(requests).toHaveLength(1);
      await client.close();
      await closeStub();
    }
  });
});

describe('a service that cannot be reached', () => {
  it('refused connections are retried with backoff, charged to no quota, and fail in seconds', async () => {
    const port = await closedPort();
    const { client, clock, infos } = clientAt(`http://127.0.0.1:${port}`, { retry: { random: () => 0.999 } });
    const error = await client.halts('sse').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).reachedServer).toBe(false);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).message).not.toContain(TOKEN);
    expect(infos.map((i) => i.outcome)).toEqual(Array(6).fill('transport-error'));
    // Backoff only (floor(0.999 x 250, 500, 1000, 2000, 4000) = 249 + 499 + 999 + 1998 + 3996 ms): the 1-per-minute window was never charged.
    expect(clock.now() - T0).toBe(7741);
    expect((await client.quotaStatus()).used).toBe(0);
    await client.close();
  });

  it('a host that does not resolve (ENOTFOUND) fails at the first attempt: sending again cannot make it resolve', async () => {
    const { client, clock, infos } = clientAt('http://quotes.example.invalid');
    const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).retryable).toBe(false);
    expect(environmentErrorOf(error, 'read')?.code).toBe('QL_HOST_UNKNOWN');
    expect(infos.map((i) => i.outcome)).toEqual(['transport-error']);
    expect(clock.now() - T0).toBe(0);
    await client.close();
  });

  it('a certificate refused (self-signed) fails at the first attempt, as QL_TLS', async () => {
    // A certificate for 127.0.0.1 signed by itself (valid to 2126), made for this test only: no client trusts it.
    const tls = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
    const server = createHttpsServer({ key: readFileSync(join(tls, 'self-signed.key')), cert: readFileSync(join(tls, 'self-signed.crt')) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const { client, clock, infos } = clientAt(`https://127.0.0.1:${port}`);
      const error = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).retryable).toBe(false);
      expect(((error as TransportError).cause as { code?: string }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(environmentErrorOf(error, 'read')?.code).toBe('QL_TLS');
      expect(infos.map((i) => i.outcome)).toEqual(['transport-error']);
      expect(clock.now() - T0).toBe(0);
      await client.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('which network failures may pass: a DNS server that did not answer (EAI_AGAIN) may, a name that does not exist or a refused certificate never', () => {
    const mayPass = ['EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_TLS_HANDSHAKE_TIMEOUT'];
    expect(mayPass.filter(networkCodeMayPass)).toEqual(mayPass);
    expect(['ENOTFOUND', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_SSL_WRONG_VERSION_NUMBER'].filter(networkCodeMayPass)).toEqual([]);
  });
});
