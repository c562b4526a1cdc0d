// Shared by sink.bench.mjs and its child processes: deterministic K-line wire records and the
// real pipeline (parse-decimals → parquet sink). Prints nothing.
// First, as the CLI: its start-up opts into optimised WebAssembly before the codec compiles.
import '../dist/cli/start-up.js';
import { parseDecimals } from '../dist/transforms/parse-decimals/index.js';
import { parquetSink } from '../dist/sinks/parquet/index.js';
import { PassThrough } from 'node:stream';

export const CODES = 100;
/** Bars per page, as the service's /kline answers (500 at most). */
export const BATCH = 500;
const T0 = 1763510400; // 2025-11-19T00:00:00Z

function pad(n, width) {
  return String(n).padStart(width, '0');
}

/** Row i of the workload: code i % CODES gets consecutive 1m bars, each consistent (low <= open, close <= high). */
export function rawKline(i) {
  const c = i % CODES;
  const k = Math.floor(i / CODES);
  const shib = c % 10 === 0;
  const close = shib ? `0.0000${18712345 + (k % 1000)}` : `${91000 + (k % 1000)}.${pad(k % 100, 2)}`;
  return {
    code: `CODE${pad(c, 3)}USDT`,
    interval: '1m',
    final: true,
    source: '/kline',
    bar: {
      timestamp: String(T0 + 60 * k),
      open_price: close,
      close_price: close,
      high_price: shib ? '0.0000187999' : `${92000 + (k % 7)}.5`,
      low_price: shib ? '0.0000186001' : `${90400 + (k % 3)}.25`,
      volume: `${k % 50}.${pad(k % 100000, 5)}`,
      turnover: `${(k % 9000) + 1000}${pad(k % 1000, 3)}.${pad(k % 10000000, 7)}`,
    },
  };
}

/**
 * The page bodies the service would send, one stream per code, in the order the real K-line
 * source receives them: it walks each series backwards, so pages come NEWEST-FIRST (the bars
 * inside a page are oldest-first, as the service sends them). QUOTELAKE_BENCH_SINK_ORDER=oldest
 * feeds them oldest-first instead, the order the sink likes best and no real run has.
 */
export function* pages(total) {
  const perCode = Math.ceil(total / CODES);
  const oldestFirst = process.env.QUOTELAKE_BENCH_SINK_ORDER === 'oldest';
  // Page ranges [lo, hi) of one series, cut from the newest bar down as the backward walk cuts them.
  const ranges = [];
  for (let hi = perCode; hi > 0; hi -= BATCH) ranges.push([Math.max(0, hi - BATCH), hi]);
  if (oldestFirst) ranges.reverse();
  for (let c = 0; c < CODES; c++) {
    for (const [lo, hi] of ranges) {
      const bars = [];
      for (let k = lo; k < hi; k++) {
        const i = k * CODES + c;
        if (i < total) bars.push(rawKline(i).bar);
      }
      if (bars.length > 0) yield { code: `CODE${pad(c, 3)}USDT`, body: JSON.stringify(bars) };
    }
  }
}

/**
 * A page body → the batch a K-line source hands over: the bars as JSON.parse left them (flat
 * strings), wrapped in records that share the source's code, interval and endpoint strings.
 */
export function pageBatch(page, seq) {
  const bars = JSON.parse(page.body);
  const stream = `kline/${page.code}/1m`;
  const records = new Array(bars.length);
  for (let i = 0; i < bars.length; i++) records[i] = { code: page.code, interval: '1m', final: true, source: '/kline', bar: bars[i] };
  return { stream, seq, records };
}

/** Batches as a source would emit them (JSON already parsed). */
export function* batches(total) {
  let seq = 0;
  for (const page of pages(total)) yield pageBatch(page, ++seq);
}

export function context(runId) {
  return {
    runId,
    signal: new AbortController().signal,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    events: { request() {}, rows() {} },
    clock: { now: () => Date.now() },
  };
}

/** Run the real transform and sink over the batches; returns rows written. */
export async function runPipeline(outputDir, batchIterable, runId = 'bench') {
  const env = { outputDir, stateDir: `${outputDir}/.state`, stdout: new PassThrough(), dataset: 'kline' };
  const transform = parseDecimals.create(parseDecimals.configSchema.parse({}), env);
  // QUOTELAKE_BENCH_ENCODE_WORKERS=0 measures the sink encoding on the main thread (default: the sink's default).
  const workers = process.env.QUOTELAKE_BENCH_ENCODE_WORKERS;
  const sink = parquetSink.create(parquetSink.configSchema.parse(workers === undefined ? {} : { encodeWorkers: Number(workers) }), env);
  const ctx = context(runId);
  let rejected = 0;
  for (const batch of batchIterable) {
    const result = transform.apply(batch, ctx);
    rejected += result.rejected.length;
    await sink.write(result.output, ctx);
  }
  const receipt = await sink.commit(ctx);
  await sink.close();
  return { rows: receipt.rows, files: receipt.files.length, rejected };
}
