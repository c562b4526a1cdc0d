/**
 * What the service client logs for an operator: a debug line per request (endpoint, status, ret,
 * latency, attempt, rows), retries and Retry-After waits and 429 holds at info, long limiter waits
 * at debug; nothing built at all when debug is off; never the token.
 */
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/api/rate-limiter.js';
import { manualSleep } from '../../src/api/sleep.js';
import { ManualClock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/component.js';
import { createLogger } from '../../src/runtime/logger.js';
import { STUB_T0, STUB_TOKEN, useStubClient } from './helpers/stub-client.js';
import { bar, json, ok } from './helpers/stub-server.js';

const { setup } = useStubClient('ql-client-logging-');

function jsonLines(level: 'debug' | 'warn' = 'debug') {
  const lines: string[] = [];
  const logger = createLogger({ level, format: 'json', write: (l) => lines.push(l), clock: new ManualClock(STUB_T0) });
  return { logger, lines, events: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('client logging', () => {
  it('a 503 with Retry-After, then an answer: two request lines and a retry line that names the wait', async () => {
    const log = jsonLines();
    let n = 0;
    const { client } = await setup(
      (req, res) => {
        if (++n === 1) {
          res.setHeader('retry-after', '4');
          return json(res, { error: 'busy' }, 503);
        }
        ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [bar(60), bar(120)] });
      },
      { logger: log.logger },
    );
    await client.kline({ code: 'EURUSD', klineType: 1, count: 2 });
    await client.close();
    const events = log.events();
    const requests = events.filter((e) => e.event === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ level: 'debug', msg: 'request', endpoint: '/quote-b-api/kline', method: 'GET', code: 'EURUSD', attempt: 1, status: 503, outcome: 'transport-error' });
    expect(requests[1]).toMatchObject({ endpoint: '/quote-b-api/kline', attempt: 2, status: 200, ret: 200, outcome: 'ok', rows: 2 });
    for (const r of requests) expect(typeof r.latencyMs).toBe('number');
    const retry = events.find((e) => e.event === 'retry');
    expect(retry).toMatchObject({ level: 'info', endpoint: '/quote-b-api/kline', retry: 1, retryAfterMs: 4000, code: 'QL_API_TRANSPORT' });
    expect(retry!.waitMs as number).toBeGreaterThanOrEqual(4000);
    expect(log.lines.join('')).not.toContain(STUB_TOKEN);
  });

  it('a 429 (rate limit) is logged at info with the hold', async () => {
    const log = jsonLines();
    let n = 0;
    const { client } = await setup(
      (req, res) => {
        if (++n === 1) return json(res, { ret: 429, msg: 'rate limit', data: {} });
        ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [] });
      },
      { logger: log.logger },
    );
    await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    await client.close();
    expect(log.events().find((e) => e.event === 'rate-limited')).toMatchObject({ level: 'info', endpoint: '/quote-b-api/kline', holdMs: 1000 });
  });

  it('with debug off, no request line is built: the logger is only asked whether debug is on', async () => {
    let asked = 0;
    const strict: Logger = {
      debug: () => {
        throw new Error('debug line built at warn level');
      },
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      isLevelEnabled: (level) => {
        asked++;
        return level !== 'debug';
      },
    };
    const { client } = await setup((req, res) => ok(res, req.query!.trace, { code: 'EURUSD', kline_type: 1, kline_list: [bar(60)] }), { logger: strict });
    const result = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    await client.close();
    expect(result.bars).toHaveLength(1);
    expect(asked).toBeGreaterThan(0);
  });
});

describe('limiter waits', () => {
  it('a wait of WAIT_LOG_MS or more is a debug line naming the rules; a shorter one is not', async () => {
    const log = jsonLines();
    const clock = new ManualClock(STUB_T0);
    const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock), logger: log.logger });
    const rules = [{ key: 'combined:second', limit: 1, windowMs: 1000 }];
    (await limiter.acquire(rules)).release();
    (await limiter.acquire(rules)).release();
    expect(log.events()).toEqual([
      expect.objectContaining({ level: 'debug', event: 'limiter-wait', waitMs: 1000, rules: ['combined:second 1/1000ms'], msg: 'waited for the rate limit' }),
    ]);
    const quiet = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock), logger: log.logger });
    const short = [{ key: 'gap', limit: 1, windowMs: 100 }];
    (await quiet.acquire(short)).release();
    (await quiet.acquire(short)).release();
    expect(log.events()).toHaveLength(1);
  });
});
