/**
 * createClient refuses an option it does not take (top level, retry, timeouts) with a QL_CONFIG that
 * names it, and the key meant where one is near. Before, a JavaScript caller's `retry: { retries: 0 }`
 * was ignored in silence and a failing request was still tried 6 times. Against the emulator
 * answering every request with a 5xx, on loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, ManualClock, startEmulator, type EmulatorHandle } from '../../src/index.js';

let emulator: EmulatorHandle;
const clock = new ManualClock('2026-11-20T00:00:00Z');
const stateDir = mkdtempSync(join(tmpdir(), 'ql-client-keys-'));
let attempts = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock, faults: '5xx=1', log: () => {} });
});
afterAll(async () => {
  await emulator.close();
});

const options = (extra: Record<string, unknown>) =>
  ({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir, clock, onRequest: () => void attempts++, ...extra }) as Parameters<typeof createClient>[0];

describe('createClient option keys', () => {
  it('the real retry key is obeyed: attempts 1 makes one attempt against a failing service', async () => {
    const client = createClient(options({ retry: { attempts: 1 } }));
    const before = attempts;
    await expect(client.kline({ code: 'BTCUSDT', klineType: 1, count: 5 })).rejects.toMatchObject({ code: 'QL_API_TRANSPORT' });
    expect(attempts - before).toBe(1);
    await client.close();
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['retry.retries (no key near)', { retry: { retries: 0 } }, 'createClient: unknown option "retry.retries" (retry takes attempts, baseDelayMs, maxDelayMs, maxTotalMs, maxRateLimitRequeues, random)'],
    ['retry.atempts', { retry: { atempts: 1 } }, 'createClient: unknown option "retry.atempts"; did you mean "retry.attempts"?'],
    ['timeouts.connect', { timeouts: { connect: 100 } }, 'createClient: unknown option "timeouts.connect"; did you mean "timeouts.connectMs"?'],
    ['timeout', { timeout: { connectMs: 100 } }, 'createClient: unknown option "timeout"; did you mean "timeouts"?'],
    ['stateDirectory', { stateDirectory: 'x' }, expect.stringMatching(/^createClient: unknown option "stateDirectory" \(createClient takes baseUrl, token, plan, plans, stateDir, .*, coordinator\)$/) as unknown as string],
    ['retry as a number', { retry: 3 }, 'createClient: option retry must be an object such as { attempts: ... }, and was given a number'],
  ];

  it.each(cases)('%s is a QL_CONFIG before any request', (_name, extra, message) => {
    const before = attempts;
    let error: unknown;
    try {
      createClient(options(extra));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'QL_CONFIG', message, hint: expect.any(String) });
    expect(attempts).toBe(before);
  });
});
