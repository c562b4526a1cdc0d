import type { Family } from '../../catalog/types.js';
import type { HaltExchange } from '../contracts.js';

export type MarketOperation = 'kline' | 'depth-tick' | 'trade-tick' | 'batch-kline';

export type Route =
  | { kind: 'market'; family: Family; op: MarketOperation; methods: readonly string[] }
  | { kind: 'suspension'; exchange: HaltExchange; methods: readonly string[] }
  | { kind: 'clock'; methods: readonly string[] }
  | { kind: 'usage'; methods: readonly string[] }
  | { kind: 'arrivals'; methods: readonly string[] };

const FAMILY_PREFIX: Readonly<Record<string, Family>> = { 'quote-stock-b-api': 'stock', 'quote-b-api': 'non-stock' };
const OPS: readonly MarketOperation[] = ['kline', 'depth-tick', 'trade-tick', 'batch-kline'];
const EXCHANGES: readonly HaltExchange[] = ['sse', 'nyse', 'nasdaq'];
const GET = ['GET'] as const;
const POST = ['POST'] as const;

const HALT_PATH = /^\/api\/suspension\/([a-z]+)$/;

/** Whether a request-target (path and query) is a halt endpoint's, known exchange or not. */
export function isSuspensionPath(target: string): boolean {
  return target.startsWith('/api/suspension/');
}

/**
 * Map a path to its route; undefined = 404. The clock route exists only when `adminClock` (manual
 * clock); the read-only usage and arrivals routes also on any test clock (`usage`: a running
 * `--clock-runs` one).
 */
export function resolveRoute(path: string, adminClock: boolean, usage = adminClock): Route | undefined {
  const market = /^\/(quote-stock-b-api|quote-b-api)\/([a-z-]+)$/.exec(path);
  if (market) {
    const family = FAMILY_PREFIX[market[1]!];
    const op = OPS.find((o) => o === market[2]);
    if (family === undefined || op === undefined) return undefined;
    return { kind: 'market', family, op, methods: op === 'batch-kline' ? POST : GET };
  }
  const halt = HALT_PATH.exec(path);
  if (halt) {
    const exchange = EXCHANGES.find((e) => e === halt[1]);
    return exchange === undefined ? undefined : { kind: 'suspension', exchange, methods: GET };
  }
  if (adminClock && path === '/_emulator/clock') return { kind: 'clock', methods: ['GET', 'POST'] };
  if (usage && path === '/_emulator/usage') return { kind: 'usage', methods: GET };
  if (usage && path === '/_emulator/arrivals') return { kind: 'arrivals', methods: GET };
  return undefined;
}
