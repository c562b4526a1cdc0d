/**
 * The network thread: runs the HttpTransports of the process for its other threads
 * (network-thread.ts). Its event loop does nothing else, so the moment an answer's headers arrive
 * is seen when it happens, not after whatever the client's thread was busy with (parsing, staging,
 * a collection): that moment is what the limiter stamps.
 */
import { parentPort } from 'node:worker_threads';
import { ResponseTooLargeError, TransportError } from '../core/errors.js';
import { HttpTransport } from './http-transport.js';
import type { FromNetworkThread, ToNetworkThread, WireFailure } from './transport-messages.js';

const port = parentPort;
if (port === null) throw new Error('transport-thread.js runs as a worker thread only');
const transports = new Map<number, HttpTransport>();
const aborts = new Map<number, AbortController>();
const post = (message: FromNetworkThread) => port.postMessage(message);

port.on('message', (message: ToNetworkThread) => {
  switch (message.type) {
    case 'open': {
      const { origin, token, connections, timeouts, maxBytes } = message.setup;
      transports.set(message.transport, new HttpTransport(origin, token, connections, timeouts, maxBytes));
      return;
    }
    case 'abort':
      aborts.get(message.id)?.abort();
      return;
    case 'close': {
      const transport = transports.get(message.transport);
      transports.delete(message.transport);
      void (transport?.close() ?? Promise.resolve()).finally(() => post({ type: 'closed', transport: message.transport }));
      return;
    }
    case 'send':
      send(message.transport, message.id, message.request);
      return;
  }
});

function send(which: number, id: number, request: Extract<ToNetworkThread, { type: 'send' }>['request']): void {
  const transport = transports.get(which);
  if (!transport) {
    post({ type: 'failed', id, failure: { kind: 'transport', endpoint: request.endpoint, detail: 'request failed: the client is closed', reachedServer: false } });
    return;
  }
  const controller = new AbortController();
  aborts.set(id, controller);
  transport
    .send({
      ...request,
      signal: controller.signal,
      onSent: () => post({ type: 'sent', id }),
      onHeaders: (at) => post({ type: 'headers', id, at }),
    })
    .then(
      (response) => post({ type: 'done', id, response }),
      (error: unknown) => post({ type: 'failed', id, failure: controller.signal.aborted ? { kind: 'aborted' } : asWire(error, request.endpoint) }),
    )
    .finally(() => aborts.delete(id));
}

function asWire(error: unknown, endpoint: string): WireFailure {
  if (error instanceof ResponseTooLargeError) return { kind: 'too-large', endpoint: error.endpoint, limitBytes: error.limitBytes, seenBytes: error.seenBytes };
  if (error instanceof TransportError) {
    const prefix = `${error.endpoint}: `;
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const fields: Record<string, string | number> = {};
    for (const key of ['code', 'syscall', 'address', 'port', 'hostname'] as const) {
      const value = (cause as Record<string, unknown> | undefined)?.[key];
      if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
    }
    return {
      kind: 'transport',
      endpoint: error.endpoint,
      detail: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
      reachedServer: error.reachedServer,
      ...(cause ? { cause: { message: cause.message, fields } } : {}),
    };
  }
  // HttpTransport turns every failure into one of the two above; anything else is a bug, said plainly (no request text).
  return { kind: 'transport', endpoint, detail: `request failed: ${error instanceof Error ? error.name : 'unknown error'} in the network thread`, reachedServer: true };
}
