import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { IANAZone } from 'luxon';
import { ConfigError } from '../core/errors.js';
import { zoneGuess } from '../core/iana-zone.js';
import { isVirtualClock, systemClock, type Clock } from '../core/clock.js';
import type { EmulatorBackends } from './backends.js';
import { isBehaviourFree, parseBehaviourSpec, type BehaviourSpec } from './behaviours/behaviour-spec.js';
import { Behaviours } from './behaviours/behaviours.js';
import { createGroundTruth, type GroundTruth } from './behaviours/ground-truth.js';
import { FaultInjector, NO_FAULT, retryAfterValue, type FaultDecision } from './faults/fault-injector.js';
import { isFaultFree, parseFaultSpec, type FaultSpec } from './faults/fault-spec.js';
import { fnv1a } from './random/index.js';
import { parseQueryString } from './http/query-string.js';
import { MAX_BODY_BYTES, readBody } from './http/read-body.js';
import { sendJson, type Reply } from './http/send.js';
import { ArrivalLog } from './limits/arrival-log.js';
import { RateLimiter, type TokenUsage } from './limits/rate-limiter.js';
import type { CustomPlan } from '../core/plans-file.js';
import { buildTokenTable, checkCustomPlans, type TokenEntry, type TokenGrant } from './plans-file.js';
import { redactToken } from './plans.js';
import { handleClock } from './routes/clock-route.js';
import { MSG } from './routes/market-requests.js';
import { handleMarket } from './routes/market-route.js';
import { isSuspensionPath, resolveRoute } from './routes/route-table.js';
import { handleSuspension, suspensionError } from './routes/suspension-route.js';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 = a free port. */
  port?: number;
  /** Seeds the synthetic data and the fault draws. Default 1. */
  seed?: number;
  /** Default the system clock; a virtual clock (one with `set`, e.g. ManualClock) also enables the admin clock endpoint. */
  clock?: Clock;
  /** Fault spec (object or text such as `5xx=0.05,drop=0.02`); off by default. */
  faults?: FaultSpec | string;
  /**
   * Behaviours the service may show (decisions R1, R2, R4-R7), object or text such as
   * `short-pages=0.5,missing-bars=0.02,descending` or `all`; off by default. A plans-file token with
   * its own `behaviours` uses those instead.
   */
  behaviours?: BehaviourSpec | string;
  /** Tokens added to the demo tokens (the `tokens:` of a plans file), on built-in or custom plans. */
  plans?: readonly TokenGrant[];
  /** Custom plans (the `plans:` of a plans file); each also gets a demo token `demo-<name>`. */
  customPlans?: readonly CustomPlan[];
  /** Zone whose midnight resets the daily totals. Default UTC. */
  quotaTimeZone?: string;
  /** false switches every rate limit and daily cap off (for benchmarks only). Default true. */
  limits?: boolean;
  /** Data sources; defaults to the catalog, the synthetic market and the halt archive. */
  backends?: EmulatorBackends;
  /** Where internal errors are reported. Default console.error. */
  log?: (line: string) => void;
}

export interface EmulatorHandle {
  /** `http://HOST:PORT` without a trailing slash. */
  url: string;
  host: string;
  port: number;
  clock: Clock;
  /** Read-only counters of a token (undefined until it made a request). */
  usage(token: string): TokenUsage | undefined;
  /** What the service holds (bars and halt records), for tests; no HTTP path reaches it. */
  truth: GroundTruth;
  close(): Promise<void>;
}

/** R3: the passing suspension error (unlike "rate limit", it names no limit: retry after a pause). */
export const HALT_BUSY = 'service temporarily unavailable: server busy, please try again later';

/** Longest request-target served; longer is HTTP 414 (W9). */
export const MAX_REQUEST_TARGET = 8192;
/** Large enough that 8-64 KiB URLs reach the handler and get a proper 414 JSON. */
export const MAX_HEADER_SIZE = 64 * 1024;

/** The origin-form part (path and query) of an absolute-form request-target; other targets unchanged. */
export function absoluteFormTail(target: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (m === null) return target;
  const rest = target.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The body of a refusal made before routing (Host, Expect, an internal error): S5 gives every error
 * of a halt endpoint `success: false`, so a target under their prefix gets it here too.
 */
function refusedBeforeRouting(req: IncomingMessage, error: string): { success?: false; error: string } {
  return isSuspensionPath(absoluteFormTail(req.url ?? '/')) ? { success: false, error } : { error };
}

async function defaultBackends(seed: number): Promise<EmulatorBackends> {
  const mod = await import('./default-backends.js');
  return mod.createDefaultBackends(seed);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 1;
  const clock = options.clock ?? systemClock;
  const zone = options.quotaTimeZone ?? 'UTC';
  if (!IANAZone.isValidZone(zone)) throw new ConfigError(`quotaTimeZone "${zone}" is not a known IANA time zone${zoneGuess(zone)}`, {}, undefined, 'give an IANA time zone name, such as UTC or Asia/Shanghai');
  const log = options.log ?? ((line: string) => console.error(line));
  const backends = options.backends ?? (await defaultBackends(seed));
  const tokens = buildTokenTable(options.plans ?? [], checkCustomPlans(options.customPlans ?? []));
  // On a test clock the limits also log each token's arrivals (GET /_emulator/arrivals); never on real time.
  const arrivals = clock !== systemClock ? new ArrivalLog() : undefined;
  const limiter = options.limits === false ? null : new RateLimiter(zone, arrivals);
  const globalSpec = typeof options.faults === 'string' ? parseFaultSpec(options.faults) : options.faults;
  const globalFaults = globalSpec && !isFaultFree(globalSpec) ? new FaultInjector(globalSpec, seed) : undefined;
  const tokenFaults = new Map<string, FaultInjector>();
  const manual = isVirtualClock(clock) ? clock : undefined;
  const behaviourSpec = typeof options.behaviours === 'string' ? parseBehaviourSpec(options.behaviours) : options.behaviours;
  const globalBehaviours = behaviourSpec && !isBehaviourFree(behaviourSpec) ? new Behaviours(behaviourSpec, seed) : undefined;
  const tokenBehaviours = new Map<string, Behaviours>();
  // One seed for all tokens: a token's own spec changes the rates, not the draws (missing bars agree).
  const behavioursFor = (token: string | undefined, entry: TokenEntry | undefined): Behaviours | undefined => {
    if (token === undefined || entry?.behaviours === undefined) return globalBehaviours;
    let b = tokenBehaviours.get(token);
    if (b === undefined) {
      b = new Behaviours(entry.behaviours, seed);
      tokenBehaviours.set(token, b);
    }
    return b;
  };
  const truth = createGroundTruth(backends, clock, (token) => behavioursFor(token, token === undefined ? undefined : tokens.get(token)));

  const faultFor = (token: string | undefined, entry: TokenEntry | undefined): FaultDecision => {
    if (token !== undefined && entry?.faults !== undefined) {
      let inj = tokenFaults.get(token);
      if (inj === undefined) {
        inj = new FaultInjector(entry.faults, (seed ^ fnv1a(token)) >>> 0);
        tokenFaults.set(token, inj);
      }
      return inj.decide();
    }
    return globalFaults?.decide() ?? NO_FAULT;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // HTTP/1.1 requires Host (RFC 9112 3.2). Refused here, not by Node (requireHostHeader), whose
    // 400 has no body: every answer of the emulator is JSON.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      return sendJson(res, { status: 400, body: refusedBeforeRouting(req, 'bad request: an HTTP/1.1 request needs a Host header') }, { close: true });
    }
    // RFC 9112 3.2: more than one Host line, or an invalid one, is also a 400.
    let hostLines = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hostLines++;
    if (hostLines > 1 || /[\s/@?#]/.test(req.headers.host ?? '')) {
      return sendJson(res, { status: 400, body: refusedBeforeRouting(req, 'bad request: one valid Host header is needed') }, { close: true });
    }
    // RFC 9112 3.2.2: a server MUST accept the absolute-form; only its path and query are routed.
    const target = absoluteFormTail(req.url ?? '/');
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    // Usage is read-only: shown on any test clock (a running one too), never on the real time.
    const route = resolveRoute(path, manual !== undefined, clock !== systemClock);
    if (route === undefined) {
      // S5: under the halt endpoints' prefix (an exchange the service has not), an error of theirs.
      const error = `no such path: ${path.slice(0, 200)}`;
      return sendJson(res, { status: 404, body: isSuspensionPath(path) ? { success: false, error } : { error } });
    }
    const method = req.method ?? 'GET';
    // S5: a halt endpoint's errors carry `success: false`, whatever refused the request.
    const refusal = (error: string) => (route.kind === 'suspension' ? { success: false, error } : { error });
    if (!route.methods.includes(method)) {
      return sendJson(res, {
        status: 405,
        body: refusal(`method ${method} not allowed on ${path}; use ${route.methods.join(', ')}`),
        headers: { allow: route.methods.join(', ') },
      });
    }
    if (Buffer.byteLength(target) > MAX_REQUEST_TARGET) {
      return sendJson(res, {
        status: 414,
        body: refusal(`request-target of ${Buffer.byteLength(target)} bytes is over ${MAX_REQUEST_TARGET}`),
      });
    }
    let body: string | undefined;
    if (method === 'POST') {
      const r = await readBody(req);
      if (!r.ok) {
        if (r.reason === 'aborted') return;
        return sendJson(
          res,
          { status: 413, body: { error: `request body over ${MAX_BODY_BYTES} bytes` } },
          { close: true },
        );
      }
      body = r.body.toString('utf8');
    }
    const params = parseQueryString(q < 0 ? '' : target.slice(q + 1));
    if (route.kind === 'clock') return sendJson(res, handleClock(method, body, manual!));
    // With the limits off nothing is counted: the null says so rather than read as "no request yet".
    const limitsOff = limiter === null;
    if (route.kind === 'usage') {
      const who = params.values.get('token') ?? '';
      const usage = limiter?.usage(who, clock.now());
      const note = limitsOff ? { note: 'limits are off (serve --no-limits): no counters are kept' } : {};
      return sendJson(res, { status: 200, body: { token: redactToken(who), known: tokens.has(who), usage: usage ?? null, ...note } });
    }
    if (route.kind === 'arrivals') {
      const who = params.values.get('token') ?? '';
      const note = limitsOff ? { note: 'limits are off (serve --no-limits): no arrivals are recorded' } : {};
      return sendJson(res, { status: 200, body: { token: redactToken(who), known: tokens.has(who), arrivals: (limitsOff ? undefined : arrivals?.view(who)) ?? null, ...note } });
    }

    const token = params.values.get('token');
    const entry = token === undefined ? undefined : tokens.get(token);
    let fault = faultFor(token, entry);
    // The busy error is a suspension answer; a market request drawing it is served normally.
    if (fault.kind === 'halt-busy' && route.kind !== 'suspension') fault = { ...fault, kind: 'none' };
    if (fault.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
    const retryAfter: Record<string, string> | undefined =
      fault.retryAfter === undefined ? undefined : { 'retry-after': retryAfterValue(fault.retryAfter, clock.now()) };
    if (fault.kind === '5xx' || fault.kind === '504') {
      const status = fault.kind === '504' ? 504 : fault.status;
      return sendJson(res, {
        status,
        body: { error: status === 502 ? 'bad gateway' : status === 503 ? 'service unavailable' : 'gateway timeout' },
        ...(retryAfter ? { headers: retryAfter } : {}),
      });
    }
    const nowMs = clock.now();
    const behaviours = behavioursFor(token, entry);
    // A faulted answer counts toward nothing: it is computed without the limiter.
    const counted = fault.kind === 'none' ? limiter : null;
    let reply: Reply;
    if (route.kind === 'suspension') {
      if (fault.kind === '429' || fault.kind === '429-untraced') reply = suspensionError('rate limit');
      else if (fault.kind === 'halt-busy') reply = suspensionError(HALT_BUSY);
      else
        reply = handleSuspension(
          // An undecodable page or size is refused as sent, not taken for an absent one.
          { exchange: route.exchange, token, entry, page: params.values.get('page') ?? params.invalid.get('page'), size: params.values.get('size') ?? params.invalid.get('size'), nowMs },
          { backends, limiter: counted, behaviours },
        );
    } else {
      const request = {
        family: route.family,
        op: route.op,
        token,
        entry,
        query: params.values.get('query'),
        queryUndecodable: params.invalid.has('query'),
        body,
        nowMs,
      };
      if (fault.kind === '429') {
        const echo = handleMarket({ ...request, entry: undefined }, { backends, limiter: null }).body as {
          trace: string;
        };
        reply = { status: 200, body: { ret: 429, msg: MSG.rate, trace: echo.trace, data: {} } };
      } else if (fault.kind === '429-untraced') {
        // R3: some 429 answers do not echo the trace (the field left out, or empty).
        reply = {
          status: 200,
          body: fault.untraced === 'absent' ? { ret: 429, msg: MSG.rate, data: {} } : { ret: 429, msg: MSG.rate, trace: '', data: {} },
        };
      } else reply = handleMarket(request, { backends, limiter: counted, behaviours });
    }
    if (retryAfter !== undefined && fault.kind !== 'none' && fault.kind !== 'truncate') reply = { ...reply, headers: { ...reply.headers, ...retryAfter } };
    sendJson(res, reply, { truncate: fault.kind === 'truncate', dripMs: fault.dripMs });
  }

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      // How often those timeouts are enforced (Node's default, 30 s, lets a slowloris linger).
      connectionsCheckingInterval: 1000,
      keepAliveTimeout: 5_000,
      requireHostHeader: false,
    },
    (req, res) => {
      handle(req, res).catch((e: unknown) => {
        log(`quotelake emulator: internal error on ${req.method} ${(req.url ?? '').split('?')[0]}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        if (!res.headersSent && !res.destroyed) {
          const error = 'internal emulator error';
          sendJson(res, { status: 500, body: refusedBeforeRouting(req, error) }, { close: true });
        } else res.destroy();
      });
    },
  );
  // CONNECT (no 'connect' listener: Node would drop the socket unanswered) and an Expect other than
  // 100-continue (Node's own 417 has no body): answered JSON like every other refusal.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const text = JSON.stringify({ error: `method ${req.method ?? 'CONNECT'} not allowed` });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/json; charset=utf-8\r\nallow: GET, POST\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    sendJson(res, { status: 417, body: refusedBeforeRouting(req, 'expectation failed: only Expect: 100-continue is supported') }, { close: true });
  });
  // Malformed requests, oversized headers, timeouts: answer JSON when possible, never crash.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status =
      err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const text = JSON.stringify({ error: status === 431 ? 'request header fields too large' : status === 408 ? 'request timeout' : 'bad request' });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    clock,
    usage: (token: string) => limiter?.usage(token, clock.now()),
    truth,
    // Once: a second call (a test's afterAll after its own close) waits for the same close rather
    // than meet Node's "Server is not running".
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      })),
  };
}

