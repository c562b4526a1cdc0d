/**
 * A timeout is decided after the answers already waiting are read: a process busy (or descheduled
 * on a loaded machine) past headersMs meets its timers before its sockets when it resumes, and
 * must not call an answer that came in time "no answer within" the timeout. The service is the
 * emulator in its own process, so it answers while this one is blocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, HttpTransport, type HttpRequest } from '../../src/api/http-transport.js';
import { serveChild, type ServedEmulator } from '../e2e/helpers/serve.js';

const TOKEN = 'demo-professional';
const request: HttpRequest = { method: 'GET', target: `/quote-b-api/kline?token=${TOKEN}&query=%7B%7D`, endpoint: '/quote-b-api/kline' };

/** Blocks this process's event loop, as a long synchronous task (or the scheduler) would. */
function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('a timeout met while the process was busy', () => {
  let emu: ServedEmulator;
  let transport: HttpTransport;
  beforeAll(async () => {
    emu = await serveChild([], ['--clock', '2026-11-20T00:00:00Z']);
    transport = new HttpTransport(emu.url, TOKEN, 1, { ...DEFAULT_TIMEOUTS, headersMs: 200 });
    // A kept-alive connection, so the next request is written at once.
    await transport.send(request);
  });
  afterAll(async () => {
    await transport.close();
    await emu.stop();
  });

  it('an answer that arrived during a 600 ms block is read, not failed at headersMs 200', async () => {
    // Blocked right after the request is written (the emulator answers in a few ms), in the loop's
    // check phase, as a page parsed outside the timer phase is: the loop's next turn then runs its
    // due timers before it reads the sockets.
    const pending = new Promise<Awaited<ReturnType<HttpTransport['send']>>>((resolve, reject) =>
      setImmediate(() => transport.send({ ...request, onSent: () => queueMicrotask(() => blockFor(600)) }).then(resolve, reject)),
    );
    const response = await pending;
    expect(response.status).toBe(200);
  });
});
