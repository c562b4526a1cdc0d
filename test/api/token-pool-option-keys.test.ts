/**
 * createTokenPool refuses an option it does not take with a QL_CONFIG that names createTokenPool,
 * not createClient (its members are createClients, which made the typo read as theirs), and the
 * key meant where one is near. Before, `tokns` was a bare TypeError and `baseurl` was said as
 * "createClient: unknown option". Against the emulator on loopback: no request is sent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createTokenPool, ManualClock, startEmulator, type EmulatorHandle } from '../../src/index.js';

let emulator: EmulatorHandle;
const clock = new ManualClock('2026-11-20T00:00:00Z');
const stateDir = mkdtempSync(join(tmpdir(), 'ql-pool-keys-'));
let requests = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock, log: () => {} });
});
afterAll(async () => {
  await emulator.close();
});

const tokens = [{ token: 'demo-professional', plan: 'professional' }];
const options = (extra: Record<string, unknown>) => ({ baseUrl: emulator.url, stateDir, clock, onRequest: () => void requests++, ...extra }) as unknown as Parameters<typeof createTokenPool>[0];

describe('createTokenPool option keys', () => {
  const perToken = ' (a pool takes each token with its plan: tokens: [{ token, plan }, …])';
  const cases: [string, Record<string, unknown>, string][] = [
    ['tokns', { tokns: tokens }, 'createTokenPool: unknown option "tokns"; did you mean "tokens"?'],
    ['baseurl', { tokens, baseurl: 'http://x' }, 'createTokenPool: unknown option "baseurl"; did you mean "baseUrl"?'],
    ['retry.atempts', { tokens, retry: { atempts: 1 } }, 'createTokenPool: unknown option "retry.atempts"; did you mean "retry.attempts"?'],
    ['retry as a number', { tokens, retry: 3 }, 'createTokenPool: option retry must be an object such as { attempts: ... }, and was given a number'],
    ['plan (a client\'s)', { tokens, plan: 'basic' }, `createTokenPool: unknown option "plan"${perToken}`],
    ['token (a client\'s)', { tokens, token: 'demo-basic' }, `createTokenPool: unknown option "token"${perToken}`],
    ['no tokens', {}, 'createTokenPool: tokens is missing'],
    ['tokens empty', { tokens: [] }, 'createTokenPool: tokens is an empty list'],
    // An entry is said by its place, never by its token: these were a bare TypeError, or a RangeError without a code.
    ['an entry without its plan', { tokens: [...tokens, { token: 'demo-basic' }] }, 'createTokenPool: tokens[1].plan is missing'],
    ['a plan given as a number', { tokens: [{ token: 'demo-basic', plan: 5 }] }, 'createTokenPool: tokens[0].plan is a number, not a string'],
    ['an entry as "token:plan" text', { tokens: ['demo-basic:basic'] }, 'createTokenPool: tokens[0] is a string, not an object { token, plan }'],
    ['a token listed twice', { tokens: [...tokens, { token: 'demo-basic', plan: 'basic' }, { token: 'demo-professional', plan: 'all-us' }] }, 'createTokenPool: tokens[2].token: a token is listed twice in the pool (demo…), as tokens[0] and tokens[2]'],
  ];

  it.each(cases)('%s is a QL_CONFIG naming createTokenPool, before any request', (_name, extra, message) => {
    const before = requests;
    let error: unknown;
    try {
      createTokenPool(options(extra));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'QL_CONFIG', message, hint: expect.any(String) });
    expect((error as ConfigError).hint).not.toContain('createClient');
    expect(requests).toBe(before);
  });

  it('the options a pool takes run it: a request is answered', async () => {
    const pool = createTokenPool(options({ tokens, retry: { attempts: 2 }, timeouts: { connectMs: 5000 } }));
    try {
      const answer = await pool.halts('sse');
      expect(answer.data.length).toBe(answer.totalCount);
      expect(requests).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });
});
