/**
 * A library caller's mistakes come back as QuotelakeErrors with a code and a hint, as the command
 * line's do: not a bare RangeError, an undici error, or an error class of the emulator's own.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createTokenPool } from '../../src/api/token-pool.js';
import { ApiError, ConfigError, QuotelakeError } from '../../src/core/errors.js';
import { startEmulator } from '../../src/emulator/index.js';

const caught = async (f: () => unknown) => {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return 'no error';
};

describe('errors a library caller meets', () => {
  it('createClient: a plan, token (empty, missing or not a string), base URL, state folder or quota zone it cannot use is a ConfigError with a hint', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'ql-lib-errors-'));
    const base = { plan: 'basic', token: 'tok-SECRET-123', baseUrl: 'http://127.0.0.1:9', stateDir };
    const errors = await Promise.all(
      [{ plan: 'gold' }, { token: '' }, { token: 98765432 }, { token: undefined }, { baseUrl: 'ftp://x' }, { baseUrl: 'http://user:pw@x' }, { baseUrl: 'not a url' }, { stateDir: undefined }, { stateDir: 42 }, { plan: 'tiny', plans: [{ name: 'tiny', base: 'basic', perDay: 3 }] }, { quotaTimeZone: 'Mars/Base' }].map((o) =>
        caught(() => createClient({ ...base, ...o } as Parameters<typeof createClient>[0])),
      ),
    );
    for (const e of errors) {
      expect(e).toBeInstanceOf(ConfigError);
      expect(e).toMatchObject({ code: 'QL_CONFIG', hint: expect.any(String) });
      expect((e as Error).message).not.toContain('tok-SECRET-123');
      expect((e as Error).message).not.toContain('98765432');
    }
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'unknown plan "gold" (expected one of free, basic, premium, professional, all-hk, all-cn, all-us)',
      'createClient: token is empty',
      // Was "token is empty" too, for a token given as a number; never the value, a secret.
      'createClient: token is a number, not a string (give it as text, in quotes)',
      'createClient: token is missing',
      'createClient: base URL "ftp://x" must be http or https',
      'createClient: base URL "http://user:***@x" holds a user name or password, which quotelake never sends',
      'createClient: base URL "not a url" is not a URL',
      // Was a bare TypeError of node:path ("The \"path\" argument must be of type string").
      'createClient: stateDir is missing',
      'createClient: stateDir is 42, not a folder',
      // startEmulator's customPlans list where the document belongs: was a bare TypeError ("reading 'find'").
      'plans must be what readPlansFile() returns ({ file, plans: [...] }), and was given a list of plans',
      'invalid quotaTimeZone "Mars/Base"',
    ]);
  });

  it('createTokenPool: a token given as a number is a ConfigError that never shows it', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'ql-lib-errors-'));
    const tokens = [{ token: 'tok-SECRET-123', plan: 'basic' }, { token: 98765432, plan: 'basic' }] as unknown as { token: string; plan: string }[];
    const e = await caught(() => createTokenPool({ baseUrl: 'http://127.0.0.1:9', stateDir, tokens }));
    // Was node's TypeError ERR_INVALID_ARG_TYPE, which quoted the token: "Received type number (98765432)".
    expect(e).toBeInstanceOf(ConfigError);
    expect(e).toMatchObject({ code: 'QL_CONFIG', message: 'createTokenPool: tokens[1].token is a number, not a string (give it as text, in quotes)', hint: expect.any(String) });
  });

  it('startEmulator: a fault or behaviour spec or a quota zone it cannot use is a ConfigError with a hint', async () => {
    const errors = await Promise.all([{ faults: 'bogus=1' }, { behaviours: 'nope' }, { quotaTimeZone: 'Mars/Base' }].map((o) => caught(() => startEmulator(o))));
    for (const e of errors) expect(e).toMatchObject({ code: 'QL_CONFIG', hint: expect.any(String) });
    expect(errors.every((e) => e instanceof QuotelakeError)).toBe(true);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      expect.stringMatching(/^invalid fault spec part "bogus=1": unknown fault "bogus"/),
      expect.stringMatching(/^invalid behaviour spec part "nope": unknown behaviour "nope"/),
      'quotaTimeZone "Mars/Base" is not a known IANA time zone',
    ]);
  });

  it('an ApiError carries the advice the command line prints', () => {
    const unknownToken = new ApiError({ ret: 401, serviceMessage: 'invalid token', endpoint: '/kline', retryable: false });
    expect(unknownToken.hint).toMatch(/^the service does not know this token: check it/);
    const notFound = new ApiError({ httpStatus: 404, serviceMessage: '', endpoint: '/kline', retryable: false });
    expect(notFound.hint).toMatch(/^nothing answers this path at the base URL/);
  });
});
