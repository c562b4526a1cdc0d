/**
 * What the process's threads and its network thread (transport-thread.ts) tell each other. One
 * network thread serves every transport of the process (each its own connection pool there). A
 * request carries no signal or callbacks (they cannot cross threads): an abort is a message, and
 * the callbacks' moments come back as messages, in the order they happened.
 */
import type { HttpResponse, Timeouts } from './http-transport.js';

/** One transport's settings. The token stays inside HttpTransport there, as here. */
export interface TransportSetup {
  readonly origin: string;
  readonly token: string;
  readonly connections: number;
  readonly timeouts: Timeouts;
  readonly maxBytes: number;
}

export interface WireRequest {
  readonly method: 'GET' | 'POST';
  readonly target: string;
  readonly endpoint: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly timeouts?: Partial<Pick<Timeouts, 'headersMs' | 'bodyMs'>>;
}

export type ToNetworkThread =
  | { readonly type: 'open'; readonly transport: number; readonly setup: TransportSetup }
  | { readonly type: 'send'; readonly transport: number; readonly id: number; readonly request: WireRequest }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'close'; readonly transport: number };

/** A failure as plain data: the error classes are rebuilt on the client's side. */
export type WireFailure =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'too-large'; readonly endpoint: string; readonly limitBytes: number; readonly seenBytes: number }
  | {
      readonly kind: 'transport';
      readonly endpoint: string;
      /** The TransportError's message after its `endpoint: ` prefix (already free of the token). */
      readonly detail: string;
      readonly reachedServer: boolean;
      readonly cause?: { readonly message: string; readonly fields: Record<string, string | number> };
    };

export type FromNetworkThread =
  | { readonly type: 'sent'; readonly id: number }
  | { readonly type: 'headers'; readonly id: number; readonly at: bigint }
  | { readonly type: 'done'; readonly id: number; readonly response: HttpResponse }
  | { readonly type: 'failed'; readonly id: number; readonly failure: WireFailure }
  | { readonly type: 'closed'; readonly transport: number };
