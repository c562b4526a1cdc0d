/**
 * One keep-alive undici Pool per client, with connect, header and body timeouts and an
 * AbortSignal on every request. Failures become TransportError with redacted text: the request
 * target carries the token, so no raw URL or raw undici message leaves this file.
 */
import type { Dispatcher } from 'undici';
import { Pool } from './undici-pool.js';
import { ResponseTooLargeError, TransportError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { networkCodeMayPass } from '../core/environment-error.js';
import { preciseConnector, timedRequests, type RequestTimers } from './request-timers.js';

export interface Timeouts {
  /** TCP connect. */
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two body chunks. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5000, headersMs: 30_000, bodyMs: 30_000 };

/**
 * Default cap on one answer's body: 16 MiB. A full /kline page (500 bars) is about 100 KB, 50
 * order books of 10 levels well under 1 MB, and a year of one exchange's suspensions a few MB;
 * anything far above is a faulty or hostile service, refused before it fills the memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path and query string (already encoded), without the origin. */
  target: string;
  /** The endpoint path alone, for messages. */
  endpoint: string;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeouts?: Partial<Pick<Timeouts, 'headersMs' | 'bodyMs'>>;
  /** Called once the status line and headers have arrived (the server has seen the request). */
  onHeaders?: () => void;
  /**
   * Called when the request is handed to a connected socket. A failure before it means nothing
   * left this process (no server can have counted it); after it and before onHeaders, the outcome
   * is unknown (the server may have counted it).
   */
  onSent?: () => void;
}

export interface HttpResponse {
  status: number;
  text: string;
  /** The Retry-After header as sent (seconds or an HTTP date), if any. */
  retryAfter?: string;
}

/** Failures before a connection exists: the server cannot have seen (or counted) the request. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Each request's timeouts and onSent, found by its options object (undici hands the same object to the interceptor). */
const requestTimers = new WeakMap<object, RequestTimers>();

export class HttpTransport {
  readonly #pool: Dispatcher;
  #closing: Promise<void> | undefined;
  private readonly timeouts: Timeouts;
  /** An ES private field: invisible to util.inspect and JSON, so a debug dump cannot show it. */
  readonly #token: string;

  private readonly maxBytes: number;
  /** The base URL's host and port, for failures whose error names neither (TLS, a connect timeout). */
  readonly #where: { hostname: string; port: number };

  constructor(origin: string, token: string, connections: number, timeouts: Timeouts, maxBytes = DEFAULT_MAX_RESPONSE_BYTES) {
    this.#token = token;
    const url = new URL(origin);
    this.#where = { hostname: url.hostname, port: url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
    this.timeouts = timeouts;
    this.maxBytes = maxBytes;
    this.#pool = new Pool(origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      // The three timeouts run on Node's timers (request-timers.ts): undici's fire up to a second late.
      connect: preciseConnector(timeouts.connectMs),
      headersTimeout: 0,
      bodyTimeout: 0,
    }).compose(timedRequests(requestTimers));
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      const options = {
        method: request.method,
        path: request.target,
        headers: { accept: 'application/json', ...request.headers },
        body: request.body,
        signal: request.signal,
      };
      requestTimers.set(options, {
        headersMs: request.timeouts?.headersMs ?? this.timeouts.headersMs,
        bodyMs: request.timeouts?.bodyMs ?? this.timeouts.bodyMs,
        onSent: request.onSent,
      });
      const response = await this.#pool.request(options);
      status = response.statusCode;
      const header = response.headers['retry-after'];
      retryAfter = Array.isArray(header) ? header[0] : header;
      request.onHeaders?.();
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBytes) {
        discard(response.body);
        throw new ResponseTooLargeError(request.endpoint, this.maxBytes, declared);
      }
      text = await readCapped(response.body, this.maxBytes, request.endpoint);
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      throw this.transportError(request, error);
    }
    return { status, text, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }

  /** Closes the connections once; later calls get the same promise (undici rejects a second close). */
  close(): Promise<void> {
    return (this.#closing ??= this.#pool.close().then(() => undefined));
  }

  /**
   * A timeout of the answer in words the user can act on: how long, and the setting that said so
   * (undici's own "Headers Timeout Error" names neither).
   */
  private timeoutWords(request: HttpRequest, code: unknown): { message: string; hint: string; ms: number; setting: string } | undefined {
    const part = code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headersMs' : code === 'UND_ERR_BODY_TIMEOUT' ? 'bodyMs' : code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connectMs' : undefined;
    if (part === undefined) return undefined;
    const own = part === 'connectMs' ? undefined : request.timeouts?.[part];
    const ms = own ?? this.timeouts[part];
    // A request with its own timeouts is a trading-halts source's (its timeoutMs).
    const setting = own !== undefined ? "the source's timeoutMs" : `service.timeouts.${part}`;
    const what = part === 'connectMs' ? `not connected within ${ms} ms` : part === 'headersMs' ? `no answer within ${ms} ms` : `the answer stopped: no data for ${ms} ms`;
    return {
      ms,
      setting,
      message: `${what} (${setting}; ${String(code)})`,
      hint: `a slow service or network: raise ${setting} in the pipeline (100 to 3600000 ms), or check the base URL and the network; committed work is kept and a new run resumes`,
    };
  }

  /** A TransportError whose message and cause are free of the token. */
  private transportError(request: HttpRequest, error: unknown): TransportError {
    const endpoint = request.endpoint;
    const code = (error as { code?: unknown }).code;
    const timeout = this.timeoutWords(request, code);
    const raw = timeout?.message ?? (error instanceof Error ? error.message : String(error));
    const message = redactText(`${typeof code === 'string' && timeout === undefined ? `${code}: ` : ''}${raw}`, this.#token);
    const cause = new Error(message);
    if (typeof code === 'string') (cause as Error & { code: string }).code = code;
    // Where it failed (address, port, host name, syscall): the CLI names it in its message. None holds the token.
    for (const key of ['syscall', 'address', 'port', 'hostname'] as const) {
      const value = ((error ?? {}) as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number') Object.assign(cause, { [key]: value });
    }
    // A certificate refused or a connect timeout carries no address: the one this pool connects to is it.
    if (!('hostname' in cause) && !('address' in cause)) Object.assign(cause, this.#where);
    // The wait and its setting, for the CLI's "cannot reach" of a connect timeout (it names the address, not the wait).
    if (timeout !== undefined) Object.assign(cause, { waitedMs: timeout.ms, setting: timeout.setting });
    const connected = !(typeof code === 'string' && NOT_CONNECTED.has(code));
    // A name that does not resolve or a certificate refused fails every attempt the same way: not retried.
    const mayPass = typeof code !== 'string' || networkCodeMayPass(code);
    return new TransportError(endpoint, `request failed: ${message}`, cause, connected, mayPass, timeout?.hint);
  }
}

/** The body as UTF-8 text, reading no further than `maxBytes` (a body without a length, or lying about it). */
type Body = AsyncIterable<Uint8Array> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown };

/** Stop a body mid-way; the abort it raises is expected, so it must not surface as unhandled. */
function discard(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Body, maxBytes: number, endpoint: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > maxBytes) {
      discard(body);
      throw new ResponseTooLargeError(endpoint, maxBytes, seen);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, seen).toString('utf8');
}
