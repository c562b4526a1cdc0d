/**
 * A client on a frozen clock talking to a stub server, with a fresh state directory per test: the
 * setup the client tests share. Call `useStubClient` at the top of a test file; it registers the
 * hooks that create and remove the directory and close the stub.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createClient, manualSleep, seededRandom, type ClientOptions, type RequestInfo } from '../../../src/api/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import { startStub, type StubHandler } from './stub-server.js';

/** Not a real token: tests check it never reaches a message, a log or a file. */
export const STUB_TOKEN = 'secret-token-0123456789';
/** The frozen start of every stub-client test. */
export const STUB_T0 = Date.parse('2026-01-05T10:00:00Z');

type Stub = Awaited<ReturnType<typeof startStub>>;

export interface StubClientFixture {
  /** This test's state directory (quota files live under it). */
  stateDir(): string;
  /** A professional-plan client on a fresh ManualClock at STUB_T0, recording every request's info. */
  clientAt(baseUrl: string, options?: Partial<ClientOptions>): ReturnType<typeof makeClient>;
  /** Starts a stub with `handler` and a client on it; the stub's received requests come along. */
  setup(handler: StubHandler, options?: Partial<ClientOptions>): Promise<ReturnType<typeof makeClient> & { requests: Stub['requests'] }>;
  /** Closes the stub started last (a test that starts several in turn). */
  closeStub(): Promise<void>;
}

function makeClient(baseUrl: string, stateDir: string, options: Partial<ClientOptions>) {
  const clock = new ManualClock(STUB_T0);
  const infos: RequestInfo[] = [];
  const client = createClient({
    baseUrl,
    token: STUB_TOKEN,
    plan: 'professional',
    stateDir,
    runId: 'run1',
    clock,
    sleep: manualSleep(clock),
    retry: { random: seededRandom(1) },
    onRequest: (info) => infos.push(info),
    ...options,
  });
  return { client, clock, infos };
}

export function useStubClient(dirPrefix: string): StubClientFixture {
  let stateDir = '';
  let stub: Stub | undefined;
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), dirPrefix));
  });
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
    await rm(stateDir, { recursive: true, force: true });
  });
  return {
    stateDir: () => stateDir,
    clientAt: (baseUrl, options = {}) => makeClient(baseUrl, stateDir, options),
    async setup(handler, options = {}) {
      stub = await startStub(handler);
      return { ...makeClient(stub.url, stateDir, options), requests: stub.requests };
    },
    async closeStub() {
      await stub?.close();
      stub = undefined;
    },
  };
}
