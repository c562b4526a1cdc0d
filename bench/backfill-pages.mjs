// A backfill's page load, as the kline-history source sends it: /kline, 500 bars of 1m, each code
// walking backwards (the next end is the oldest bar's timestamp minus one), so no page repeats and
// no bar of one page is in another. Used by emulator.bench.mjs; prints nothing.
import { Pool } from 'undici';

export const BACKFILL_CODES = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'GOLD', 'Silver', 'XPTUSD'];

const target = (token, code, endSec, trace) =>
  `/quote-b-api/kline?token=${token}&query=${encodeURIComponent(
    JSON.stringify({
      trace,
      data: { code, kline_type: 1, kline_timestamp_end: endSec, query_kline_num: 500, adjust_type: 0 },
    }),
  )}`;

/** The first `"timestamp":"N"` of a body's head: the oldest bar of an ascending page. */
function oldestTimestamp(head) {
  const at = head.indexOf('"timestamp":"');
  if (at < 0) return NaN;
  return Number(head.slice(at + 13, head.indexOf('"', at + 13)));
}

/** Reads a body through, keeping only its first 256 bytes as text (decoding 80 KB is not the point). */
async function headOf(body) {
  let head = '';
  let bytes = 0;
  for await (const chunk of body) {
    if (head.length < 256) head += chunk.toString('latin1', 0, Math.min(chunk.length, 256));
    bytes += chunk.length;
  }
  return { head, bytes };
}

/**
 * Walks every code backwards from `fromSec` for `durationMs` (or until `floorSec`), `connections`
 * requests in flight. Returns pages answered, errors, elapsed ms and bytes received.
 */
export async function driveBackfill({ url, token = 'demo-professional', codes = BACKFILL_CODES, fromSec, floorSec, durationMs, connections = 4 }) {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const ends = new Map(codes.map((c) => [c, fromSec]));
  let next = 0;
  let pages = 0;
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const stopAt = started + durationMs;
  const walker = async () => {
    while (performance.now() < stopAt && ends.size > 0) {
      // Round robin over the codes still walking; one request per code in flight at most.
      const live = [...ends.keys()];
      const code = live[next++ % live.length];
      const end = ends.get(code);
      ends.delete(code);
      const res = await pool.request({ path: target(token, code, end, `bf-${pages}`), method: 'GET' });
      const { head, bytes: n } = await headOf(res.body);
      bytes += n;
      const oldest = oldestTimestamp(head);
      const ok = res.statusCode === 200 && head.startsWith('{"ret":200');
      if (!ok || !(oldest > floorSec)) {
        if (!ok) errors++;
        continue; // this code is done (or broken): it is not put back
      }
      pages++;
      ends.set(code, oldest - 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(connections, codes.length) }, walker));
  } finally {
    await pool.close();
  }
  return { pages, errors, bytes, elapsedMs: performance.now() - started };
}
