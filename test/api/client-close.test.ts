/**
 * A client closed while requests still wait for their rate-limit slot (a run that failed on one
 * stream's answer while its other streams were queued): those requests never leave, so they fail
 * at once and give back the quota they had reserved. Real HTTP against the emulator on loopback.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { abortReason } from '../../src/api/sleep.js';
import { AbortedError, ApiError } from '../../src/core/errors.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A wait that never ends by itself (the real second a basic plan waits): only an abort ends it. */
const heldSleep = (_ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(abortReason(signal)), { once: true }));

describe('closing a client with requests waiting for a slot', () => {
  it('fails them unsent and charges the quota only for what was sent', async () => {
    world = await startWorld();
    const token = 'not-a-token-of-this-service';
    const admissions: boolean[] = [];
    const { client, infos } = world.client('basic', { token, sleep: heldSleep, onAdmission: (info) => admissions.push(info.admitted) });
    // Four streams at once on a plan of one request a second: one is sent, three wait.
    const calls = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'].map((code) => client.kline({ code, klineType: 1, count: 10 }).then(() => 'ok', (e: unknown) => e));
    const first = await Promise.race(calls);
    expect(first).toBeInstanceOf(ApiError);
    await client.close();
    const rest = await Promise.all(calls);
    expect(rest.filter((e) => e instanceof AbortedError)).toHaveLength(3);
    expect(infos.map((i) => i.outcome)).toEqual(['api-error']);
    // Not refusals at the daily quota: nothing was refused, the client stopped.
    expect(admissions).toEqual([true]);
    const saved = JSON.parse(await readFile(join(world.stateDir, 'quota', `${tokenHash16(token)}.json`), 'utf8')) as { used: number };
    expect(saved.used).toBe(1);
  });
});
