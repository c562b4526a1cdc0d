/**
 * The connect, headers and body timeouts of service.timeouts on Node's own timers. undici's are
 * "fast timers" that tick about every half second, so a 200 ms headers timeout fired at 500-1000 ms
 * and a 1000 ms one at about 1500 ms; these fire within a few ms of their setting. undici's own
 * timeouts are turned off where these run (headersTimeout/bodyTimeout 0, connector timeout 0).
 *
 * Cost: per connection one timer; per request one timer for the headers and one for the body; per
 * body chunk one clock read (a stalled body is found when its timer fires and sees no chunk for
 * bodyMs), never a timer per chunk. A timer that fires decides only after the pending I/O is read.
 * undici's modules are imported as undici-pool.ts imports them (its index costs every start).
 */
import type { Dispatcher } from 'undici';
import buildConnector from 'undici/lib/core/connect.js';
import { BodyTimeoutError, ConnectTimeoutError, HeadersTimeoutError } from 'undici/lib/core/errors.js';

/** One request's phase timeouts and its hook for the moment it is handed to a connected socket. */
export interface RequestTimers {
  headersMs: number;
  bodyMs: number;
  onSent?: (() => void) | undefined;
}

type Connector = ReturnType<typeof buildConnector>;

/**
 * undici's connector (TCP, TLS and its session cache as before) without its own timer, failing a
 * connection (TLS handshake included) that is not up within `connectMs` with undici's error.
 */
export function preciseConnector(connectMs: number): Connector {
  const connect = buildConnector({ timeout: 0 });
  return (options, callback) => {
    const timer = new AfterIo();
    // undici's connector returns the socket (its types say void).
    const socket = connect(options, (...args) => {
      timer.stop();
      callback(...args);
    }) as unknown as { destroy(error: Error): void } | undefined;
    timer.arm(() => {
      const where = `${options.hostname}:${options.port !== '' ? options.port : options.protocol === 'https:' ? 443 : 80}`;
      socket?.destroy(new ConnectTimeoutError(`Connect Timeout Error (attempted address: ${where}, timeout: ${connectMs}ms)`));
    }, connectMs);
  };
}

/**
 * A timer whose callback runs after the I/O that was already waiting when it fired: a process
 * descheduled or busy past the timeout (a loaded machine, a long encode) meets its timers before
 * its sockets, and would fail an answer that came in time but was not read yet.
 */
class AfterIo {
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;

  arm(fire: () => void, ms: number): void {
    this.#timer = setTimeout(() => {
      this.#immediate = setImmediate(fire);
    }, ms);
    this.#timer.unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
    clearImmediate(this.#immediate);
  }
}

/**
 * An interceptor timing each request registered in `timersOf` (found by its options object, which
 * undici hands on unchanged): headersMs from the moment it is written to a connected socket until
 * the answer's headers, then bodyMs between two chunks of the body (not while the reader has paused
 * it). Over either, the request is aborted with undici's own error, so its handling is unchanged.
 */
export function timedRequests(timersOf: WeakMap<object, RequestTimers>) {
  return (dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'] =>
    (opts, handler) => {
      const own = timersOf.get(opts);
      if (own === undefined) return dispatch(opts, handler);
      const h = handler as Dispatcher.DispatchHandler;
      const timer = new AfterIo();
      let lastData = 0;
      const stop = () => timer.stop();
      const arm = (fire: () => void, ms: number) => timer.arm(fire, ms);
      const wrapped: Dispatcher.DispatchHandler = {
        onRequestStart: (controller, context) => {
          own.onSent?.();
          arm(() => controller.abort(new HeadersTimeoutError()), own.headersMs);
          h.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (...args) => h.onRequestUpgrade?.(...args),
        onResponseStart: (controller, ...rest) => {
          stop();
          lastData = performance.now();
          const check = () => {
            const left = lastData + own.bodyMs - performance.now();
            if (controller.paused) {
              lastData = performance.now();
              arm(check, own.bodyMs);
            } else if (left > 0) arm(check, Math.ceil(left));
            else controller.abort(new BodyTimeoutError());
          };
          arm(check, own.bodyMs);
          h.onResponseStart?.(controller, ...rest);
        },
        onResponseData: (controller, chunk) => {
          lastData = performance.now();
          h.onResponseData?.(controller, chunk);
        },
        onResponseEnd: (...args) => {
          stop();
          h.onResponseEnd?.(...args);
        },
        onResponseError: (...args) => {
          stop();
          h.onResponseError?.(...args);
        },
      };
      return dispatch(opts, wrapped);
    };
}
