/**
 * A library caller's token of whitespace only is refused up front like an empty one (a ConfigError
 * naming the option, never the value), not sent to fail at the service as "token invalid"; and
 * whitespace at either end of a token (a file's trailing newline) is no part of it, as the command
 * line trims QUOTELAKE_TOKEN, --token and a tokens file's entries. Against the emulator on loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createClient, createTokenPool, ManualClock, startEmulator, type EmulatorHandle } from '../../src/index.js';

let emulator: EmulatorHandle;
const clock = new ManualClock('2026-11-20T00:00:00Z');
const stateDir = mkdtempSync(join(tmpdir(), 'ql-token-blank-'));
let requests = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock, log: () => {} });
});
afterAll(async () => {
  await emulator.close();
});

const shared = () => ({ baseUrl: emulator.url, stateDir, clock, onRequest: () => void requests++ });
const base = () => ({ ...shared(), plan: 'professional' });
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return 'no error';
};

describe('a token of whitespace', () => {
  it.each([['blanks', '   '], ['a tab and a line break', '\t\n']])('createClient: %s only is a ConfigError before any request', (_name, token) => {
    const before = requests;
    const error = thrown(() => createClient({ ...base(), token }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'QL_CONFIG', message: 'createClient: token is blank (only whitespace)', hint: expect.any(String) });
    expect(requests).toBe(before);
  });

  it('createTokenPool: an entry of whitespace only, or an empty one, is a ConfigError naming its place', () => {
    const blank = thrown(() => createTokenPool({ ...shared(), tokens: [{ token: 'demo-professional', plan: 'professional' }, { token: '  ', plan: 'basic' }] }));
    expect(blank).toBeInstanceOf(ConfigError);
    expect(blank).toMatchObject({ message: 'createTokenPool: tokens[1].token is blank (only whitespace)', hint: expect.any(String) });
    expect(thrown(() => createTokenPool({ ...shared(), tokens: [{ token: '', plan: 'basic' }] }))).toMatchObject({ code: 'QL_CONFIG', message: 'createTokenPool: tokens[0].token is empty' });
  });

  it('createClient: whitespace around a token is trimmed, as the command line does, and the service answers', async () => {
    const client = createClient({ ...base(), token: ' demo-professional\n' });
    try {
      const answer = await client.halts('sse');
      expect(answer.totalCount).toBeGreaterThan(0);
      expect(answer.data.length).toBe(answer.totalCount);
    } finally {
      await client.close();
    }
  });

  it('createTokenPool: entries are trimmed too, so the same token with a trailing newline is listed twice', async () => {
    expect(() => createTokenPool({ ...shared(), tokens: [{ token: 'demo-professional', plan: 'professional' }, { token: 'demo-professional\n', plan: 'professional' }] })).toThrow(
      'a token is listed twice in the pool (demo…)',
    );
    const pool = createTokenPool({ ...shared(), tokens: [{ token: ' demo-basic ', plan: 'basic' }] });
    try {
      const answer = await pool.halts('nyse');
      expect(answer.data.length).toBe(answer.totalCount);
    } finally {
      await pool.close();
    }
  });
});
