/**
 * The HTTP transport's contract: the client reads "was it sent, was it answered" from
 * onSent/onHeaders and the error classes (a request that never reached the server is never
 * counted; one that did holds its slot until its answer), so each of them is pinned here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, HttpTransport, type HttpRequest } from '../../src/api/http-transport.js';
import { ResponseTooLargeError, TransportError } from '../../src/core/errors.js';
import { environmentErrorOf } from '../../src/core/environment-error.js';
import { closedPort } from '../helpers/closed-port.js';
import { startStub, type StubHandler } from './helpers/stub-server.js';

const TOKEN = 'secret-token-of-the-contract';

describe('HttpTransport', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function world(handler: StubHandler, options: { maxBytes?: number; headersMs?: number } = {}) {
    const stub = await startStub(handler);
    const transport = new HttpTransport(stub.url, TOKEN, 4, { ...DEFAULT_TIMEOUTS, ...(options.headersMs ? { headersMs: options.headersMs } : {}) }, options.maxBytes);
    closers.push(() => stub.close(), () => transport.close());
    return { stub, transport };
  }

  const request = (extra: Partial<HttpRequest> = {}): HttpRequest => ({ method: 'GET', target: `/quote-b-api/kline?token=${TOKEN}&query=%7B%7D`, endpoint: '/quote-b-api/kline', ...extra });

  it('answers status, text and Retry-After, after onSent then onHeaders', async () => {
    const { transport, stub } = await world((_req, res) => {
      res.setHeader('retry-after', '3');
      res.setHeader('content-type', 'application/json');
      res.end('{"ret":200,"msg":"ok","data":"é ✓"}');
    });
    const events: string[] = [];
    const response = await transport.send(
      request({
        headers: { 'x-probe': '1' },
        onSent: () => events.push('sent'),
        onHeaders: () => events.push('headers'),
      }),
    );
    expect(response).toEqual({ status: 200, text: '{"ret":200,"msg":"ok","data":"é ✓"}', retryAfter: '3' });
    expect(events).toEqual(['sent', 'headers']);
    expect(stub.requests[0]!.token).toBe(TOKEN);
  });

  it('sends a POST body and the caller\'s headers', async () => {
    const { transport, stub } = await world((req, res) => res.end(JSON.stringify({ body: req.body })));
    const response = await transport.send({ ...request(), method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(response.text)).toEqual({ body: '{"a":1}' });
    expect(stub.requests[0]!.method).toBe('POST');
  });

  it('a refused connection is a TransportError that never reached the server, without the token, and onSent is not called', async () => {
    const port = await closedPort();
    const transport = new HttpTransport(`http://127.0.0.1:${port}`, TOKEN, 1, DEFAULT_TIMEOUTS);
    closers.push(() => transport.close());
    let sent = false;
    const error = await transport.send(request({ onSent: () => (sent = true) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).reachedServer).toBe(false);
    expect((error as TransportError).endpoint).toBe('/quote-b-api/kline');
    expect(((error as TransportError).cause as { code?: string }).code).toBe('ECONNREFUSED');
    expect(((error as TransportError).cause as { port?: number }).port).toBe(port);
    expect((error as Error).message).toMatch(/^\/quote-b-api\/kline: request failed: ECONNREFUSED/);
    expect(`${(error as Error).message} ${String((error as TransportError).cause)}`).not.toContain(TOKEN);
    expect(sent).toBe(false);
  });

  it('a TLS failure names the host and port of the base URL, which the TLS error does not carry', async () => {
    const stub = await startStub((_req, res) => res.end('{}'));
    closers.push(() => stub.close());
    const port = new URL(stub.url).port;
    // https:// to a plain-HTTP server: the handshake fails with ERR_SSL_WRONG_VERSION_NUMBER.
    const transport = new HttpTransport(`https://127.0.0.1:${port}`, TOKEN, 1, DEFAULT_TIMEOUTS);
    closers.push(() => transport.close());
    const error = await transport.send(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(((error as TransportError).cause as { code?: string }).code).toMatch(/SSL|TLS/);
    const described = environmentErrorOf(error, 'read');
    expect(described?.code).toBe('QL_TLS');
    expect(described?.message).toMatch(new RegExp(`^/quote-b-api/kline: the TLS connection to 127\\.0\\.0\\.1:${port} was refused: `));
  });

  it('an abort while the answer is awaited rejects with the signal\'s reason, after onSent', async () => {
    const { transport } = await world(() => undefined); // never answers
    const controller = new AbortController();
    let sent = false;
    const pending = transport.send(request({ signal: controller.signal, onSent: () => (sent = true) }));
    await expect.poll(() => sent).toBe(true);
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('an already aborted signal sends nothing', async () => {
    const { transport, stub } = await world((_req, res) => res.end('{}'));
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(transport.send(request({ signal: controller.signal }))).rejects.toThrow('too late');
    expect(stub.requests).toHaveLength(0);
  });

  it('headers that never come are a TransportError that reached the server', async () => {
    const { transport } = await world(() => undefined, { headersMs: 150 });
    const error = await transport.send(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).reachedServer).toBe(true);
    expect(((error as TransportError).cause as { code?: string }).code).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('a body above the cap is a ResponseTooLargeError with the cap and what was seen', async () => {
    const { transport } = await world((_req, res) => res.end('x'.repeat(5000)), { maxBytes: 4096 });
    const error = await transport.send(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limitBytes).toBe(4096);
    expect((error as Error).message).toContain('more than 4096 bytes (at least 5000 seen; a library client sets the cap with maxResponseBytes)');
  });

  it('after close() a request is refused, as never sent', async () => {
    const stub = await startStub((_req, res) => res.end('{}'));
    closers.push(() => stub.close());
    const transport = new HttpTransport(stub.url, TOKEN, 4, DEFAULT_TIMEOUTS);
    await transport.send(request());
    await transport.close();
    const error = await transport.send(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
  });

  it('close() twice, or twice at once, resolves each time (two owners may both close it)', async () => {
    const stub = await startStub((_req, res) => res.end('{}'));
    closers.push(() => stub.close());
    const transport = new HttpTransport(stub.url, TOKEN, 4, DEFAULT_TIMEOUTS);
    await transport.send(request());
    await expect(Promise.all([transport.close(), transport.close()])).resolves.toEqual([undefined, undefined]);
    await expect(transport.close()).resolves.toBeUndefined();
  });
});
