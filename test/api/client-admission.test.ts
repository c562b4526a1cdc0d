/**
 * onAdmission (for metrics): each attempt says how long the quota and the limiter held it, in clock
 * time, or that it was refused before the wire; a stop while waiting is not a refusal.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenHash16, type AdmissionInfo } from '../../src/api/index.js';
import { QuotaExhaustedError } from '../../src/core/errors.js';
import { startWorld, type World } from './helpers/emulator.js';
import { useStubClient } from './helpers/stub-client.js';
import { fail } from './helpers/stub-server.js';

const stub = useStubClient('ql-admission-');

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('onAdmission', () => {
  it('Free (1 request per 10 s): three requests at once wait 0, 10 and 20 s of clock time', async () => {
    world = await startWorld();
    const admissions: AdmissionInfo[] = [];
    const { client } = world.client('free', { onAdmission: (a) => admissions.push(a) });
    await Promise.all(['EURUSD', 'GOLD', 'BTCUSDT'].map((code) => client.kline({ code, klineType: 1, count: 1 })));
    expect(admissions.map((a) => a.waitMs)).toEqual([0, 10_000, 20_000]);
    expect(admissions.every((a) => a.admitted && a.endpoint === '/quote-b-api/kline')).toBe(true);
  });

  it('a request the daily quota refuses is reported refused, never sent', async () => {
    world = await startWorld();
    // 999 of the Free plan's 1000 used today (the quota file as another process left it).
    const dir = join(world.stateDir, 'quota');
    await mkdir(dir, { recursive: true });
    const hash = tokenHash16('demo-free');
    await writeFile(
      join(dir, `${hash}.json`),
      JSON.stringify({ version: 1, tokenHash: hash, day: '2026-03-02', timeZone: 'UTC', used: 999, limit: 1000, updatedAt: '2026-03-02T14:00:00.000Z' }),
    );
    const admissions: AdmissionInfo[] = [];
    const { client, infos } = world.client('free', { onAdmission: (a) => admissions.push(a), quotaBlockSize: 1 });
    await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    await expect(client.kline({ code: 'EURUSD', klineType: 1, count: 1 })).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(admissions.map((a) => a.admitted)).toEqual([true, false]);
    expect(infos).toHaveLength(1);
  });

  it('after the service closes the day, every attempt still waiting is reported refused; the sent ones admitted', async () => {
    const admissions: AdmissionInfo[] = [];
    const { client, requests, infos } = await stub.setup((req, res) => fail(res, req.query!.trace, 429, 'daily limit exceeded'), {
      onAdmission: (a) => admissions.push(a),
    });
    // 60 calls on a plan that admits 20 a second: those not yet sent when the first answer comes are refused.
    const calls = Array.from({ length: 60 }, () => client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 }).catch((e: unknown) => e));
    const errors = await Promise.all(calls);
    expect(errors.every((e) => e instanceof QuotaExhaustedError)).toBe(true);
    expect(admissions.filter((a) => a.admitted)).toHaveLength(requests.length);
    expect(admissions.filter((a) => !a.admitted)).toHaveLength(60 - requests.length);
    expect(infos).toHaveLength(requests.length);
    await client.close();
  });

  it('a request stopped while it waits for its slot is not reported', async () => {
    world = await startWorld();
    const admissions: AdmissionInfo[] = [];
    const { client } = world.client('free', { onAdmission: (a) => admissions.push(a) });
    await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    const controller = new AbortController();
    const waiting = client.kline({ code: 'GOLD', klineType: 1, count: 1 }, controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(await waiting).toBeInstanceOf(Error);
    expect(admissions).toHaveLength(1);
  });

  it('a callback that throws does not break the request', async () => {
    world = await startWorld();
    const { client } = world.client('professional', {
      onAdmission: () => {
        throw new Error('broken metrics');
      },
    });
    const r = await client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    expect(r.code).toBe('EURUSD');
  });
});
