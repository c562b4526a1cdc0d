/**
 * HttpTransport run on the process's network thread (network-thread.ts, transport-thread.ts),
 * behind the same send().
 *
 * Why: the limiter stamps each request when its answer's headers arrive, and every slot of the
 * plan is busy until that stamp plus the window. On the client's thread those headers are only
 * seen once it is free: a page being parsed, a partition being staged or a garbage collection can
 * make an answer that came back in 2 ms look 50 ms late, and that slot then sits idle for 48 ms.
 * The network thread does nothing else, so it sees the moment itself and says when it was
 * (onHeaders(at)); the release, however late it runs, stamps that moment. Reading and decoding the
 * bodies leaves the client's thread too.
 *
 * A request's messages arrive in the order they happened (sent, headers, then done or failed), so
 * the client's view of "was it sent, was it answered" is what it would be on its own thread. An
 * abort is passed on and the thread's answer awaited, for the same reason.
 */
import { ResponseTooLargeError, TransportError } from '../core/errors.js';
import type { HttpRequest, HttpResponse, Timeouts, Transport } from './http-transport.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './http-transport.js';
import { networkThread } from './network-thread.js';
import type { TransportSetup, WireFailure } from './transport-messages.js';

let transports = 0;

export class ThreadedTransport implements Transport {
  private readonly id = ++transports;
  private closed = false;
  /** An ES private field: invisible to util.inspect and JSON, so a debug dump cannot show it. */
  readonly #setup: TransportSetup;

  constructor(origin: string, token: string, connections: number, timeouts: Timeouts, maxBytes = DEFAULT_MAX_RESPONSE_BYTES) {
    this.#setup = { origin, token, connections, timeouts, maxBytes };
    networkThread.warm();
  }

  send(request: HttpRequest): Promise<HttpResponse> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new TransportError(request.endpoint, 'request failed: the client is closed', undefined, false));
    return new Promise<HttpResponse>((resolve, reject) => {
      let sent = false;
      const onAbort = () => networkThread.abort(id);
      const settle = () => signal?.removeEventListener('abort', onAbort);
      const { method, target, endpoint, body, headers, timeouts } = request;
      const id = networkThread.send(
        this.id,
        this.#setup,
        { method, target, endpoint, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}), ...(timeouts ? { timeouts } : {}) },
        {
          onMessage: (message) => {
            switch (message.type) {
              case 'sent':
                sent = true;
                request.onSent?.();
                return;
              case 'headers':
                request.onHeaders?.(message.at);
                return;
              case 'done':
                settle();
                resolve(message.response);
                return;
              case 'failed':
                settle();
                reject(rebuild(request, message.failure));
                return;
            }
          },
          onLost: (error) => {
            settle();
            reject(new TransportError(endpoint, `request failed: ${error.message}`, error, sent));
          },
        },
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await networkThread.close(this.id);
  }
}

function rebuild(request: HttpRequest, failure: WireFailure): unknown {
  if (failure.kind === 'aborted') return request.signal?.reason ?? new TransportError(request.endpoint, 'request failed: aborted');
  if (failure.kind === 'too-large') return new ResponseTooLargeError(failure.endpoint, failure.limitBytes, failure.seenBytes);
  let cause: Error | undefined;
  if (failure.cause) {
    cause = new Error(failure.cause.message);
    Object.assign(cause, failure.cause.fields);
  }
  return new TransportError(failure.endpoint, failure.detail, cause, failure.reachedServer);
}
