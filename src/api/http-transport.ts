/**
 * One keep-alive undici Pool per client, with connect, header and body timeouts and an
 * AbortSignal on every request. Failures become TransportError with redacted text: the request
 * target carries the token, so no raw URL or raw undici message leaves this file.
 */
import { Pool } from 'undici';
import { ResponseTooLargeError, TransportError } from '../core/errors.js';
import { redactText } from './redact.js';

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
}

export interface HttpResponse {
  status: number;
  text: string;
  /** The Retry-After header as sent (seconds or an HTTP date), if any. */
  retryAfter?: string;
}

/** Failures before a connection exists: the server cannot have seen (or counted) the request. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class HttpTransport {
  readonly #pool: Pool;
  private readonly timeouts: Timeouts;
  /** An ES private field: invisible to util.inspect and JSON, so a debug dump cannot show it. */
  readonly #token: string;

  private readonly maxBytes: number;

  constructor(origin: string, token: string, connections: number, timeouts: Timeouts, maxBytes = DEFAULT_MAX_RESPONSE_BYTES) {
    this.#token = token;
    this.timeouts = timeouts;
    this.maxBytes = maxBytes;
    this.#pool = new Pool(origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      const response = await this.#pool.request({
        method: request.method,
        path: request.target,
        headers: { accept: 'application/json', ...request.headers },
        body: request.body,
        signal: request.signal,
        headersTimeout: request.timeouts?.headersMs ?? this.timeouts.headersMs,
        bodyTimeout: request.timeouts?.bodyMs ?? this.timeouts.bodyMs,
      });
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
      throw this.transportError(request.endpoint, error);
    }
    return { status, text, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  /** A TransportError whose message and cause are free of the token. */
  private transportError(endpoint: string, error: unknown): TransportError {
    const code = (error as { code?: unknown }).code;
    const raw = error instanceof Error ? error.message : String(error);
    const message = redactText(`${typeof code === 'string' ? `${code}: ` : ''}${raw}`, this.#token);
    const cause = new Error(message);
    if (typeof code === 'string') (cause as Error & { code: string }).code = code;
    // Where it failed (address, port, host name, syscall): the CLI names it in its message. None holds the token.
    for (const key of ['syscall', 'address', 'port', 'hostname'] as const) {
      const value = ((error ?? {}) as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number') Object.assign(cause, { [key]: value });
    }
    const connected = !(typeof code === 'string' && NOT_CONNECTED.has(code));
    return new TransportError(endpoint, `request failed: ${message}`, cause, connected);
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
