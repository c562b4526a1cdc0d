/**
 * A bar is final only if its interval had ended when its request was asked for. The service reads
 * its bars somewhere between the ask and the answer: an answer that arrives after a bar's end (a
 * slow network, a busy service) may still hold that bar forming, and a bar stored as final is
 * never replaced. Here every answer is held until the clock passes the forming bar's end.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import type { RawKline } from '../../src/core/records.js';
import { klineHistory, klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { klineLatest, klineLatestConfigSchema } from '../../src/sources/kline-latest/index.js';
import { STUB_T0, useStubClient } from '../api/helpers/stub-client.js';
import { bar, ok } from '../api/helpers/stub-server.js';
import { drain } from './helpers/world.js';

const fixture = useStubClient('ql-final-at-ask-');
const MIN = 60;
const T0 = STUB_T0 / 1000; // 2026-01-05T10:00:00Z
/** The bars a service has at 10:00:30: 09:58 and 09:59 ended, 10:00 forming. */
const BARS = [T0 - 2 * MIN, T0 - MIN, T0].map(bar);

const env = (client: ServiceClient) => ({ outputDir: fixture.stateDir(), stateDir: fixture.stateDir(), stdout: new PassThrough(), client });
const finals = (records: readonly RawKline[]) => Object.fromEntries(records.map((r) => [new Date(Number(r.bar.timestamp) * 1000).toISOString().slice(11, 16), r.final]));

describe('a bar forming when it was asked for stays forming, however late its answer', () => {
  it('kline-history: the answer comes after 10:01; the 10:00 bar it holds is stored forming, to be fetched again', async () => {
    const { client, clock } = await fixture.setup((req, res) => {
      clock.advance(MIN * 1000); // the answer leaves the service at 10:01:30
      ok(res, req.query!.trace, { code: 'BTCUSDT', kline_type: 1, kline_list: BARS });
    });
    clock.set(STUB_T0 + 30_000);
    const source = klineHistory.create(klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], since: '2026-01-05T09:58:00Z' }), env(client));
    const run = await drain<RawKline>(source, clock);
    expect(finals(run.records)).toEqual({ '09:58': true, '09:59': true, '10:00': false });
    // The checkpoint's watermark is the newest final bar: the next run asks for 10:00 again.
    expect(run.checkpoints.get('kline/BTCUSDT/1m')!.position).toMatchObject({ watermark: T0 - MIN });
    await client.close();
  });

  it('kline-latest: the same for the two latest bars of /batch-kline', async () => {
    const { client, clock } = await fixture.setup((req, res) => {
      clock.advance(MIN * 1000);
      const body = JSON.parse(req.body) as { trace: string; data: { data_list: { code: string; kline_type: number }[] } };
      ok(res, body.trace, { kline_list: body.data.data_list.map((i) => ({ code: i.code, kline_type: i.kline_type, kline_data: BARS.slice(1) })) });
    });
    clock.set(STUB_T0 + 30_000);
    const source = klineLatest.create(klineLatestConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'] }), env(client));
    const run = await drain<RawKline>(source, clock);
    expect(finals(run.records)).toEqual({ '09:59': true, '10:00': false });
    await client.close();
  });
});
