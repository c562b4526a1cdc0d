/** A multi-file lake written by the real sinks, and the whole-file truth to compare a reader with. */
import { arrowSink } from '../../../src/sinks/arrow/index.js';
import { parquetSink } from '../../../src/sinks/parquet/index.js';
import type { Sink } from '../../../src/core/component.js';
import type { KlineRow } from '../../../src/core/records.js';
import { readLakeRecords, type LakeFormat } from '../../../src/lake/reader/index.js';
import { klineRows, rawKline, T0 } from '../../sinks/fixtures.js';
import { runContext, sinkEnv } from '../../sinks/helpers.js';

const sinkType = { parquet: parquetSink, arrow: arrowSink } as const;

export async function commitRun(out: string, format: LakeFormat, runId: string, rows: KlineRow[], config: Record<string, unknown> = {}): Promise<void> {
  const def = sinkType[format];
  const sink = def.create(def.configSchema.parse(format === 'parquet' ? { encodeWorkers: 0, ...config } : config) as never, sinkEnv(out, 'kline')) as Sink<KlineRow>;
  const ctx = runContext(runId);
  try {
    await sink.write({ stream: `kline/${runId}`, seq: 1, records: rows }, ctx);
    await sink.commit(ctx);
  } finally {
    await sink.close();
  }
}

export const bars = (code: string, interval: '1m' | '1h', from: number, count: number, step: number) =>
  Array.from({ length: count }, (_, i) => rawKline(code, interval, from + i * step, `${100 + i}.5`));

/**
 * Three runs over two days: run 1 writes BTCUSDT and ETHUSDT 1m into the same partitions (files of
 * two series), run 2 later BTCUSDT bars of day 1 and 1h bars (more files in one partition, files of
 * one series), run 3 ETHUSDT 1h. 1m: day 1 from T0 (07:00Z), 90 bars; day 2 from T0 + 17h (00:00Z).
 */
export async function writeLake(out: string, format: LakeFormat): Promise<void> {
  await commitRun(out, format, 'r1', klineRows([...bars('BTCUSDT', '1m', T0, 90, 60), ...bars('ETHUSDT', '1m', T0, 90, 60), ...bars('ETHUSDT', '1m', T0 + 17 * 3600, 30, 60)]));
  await commitRun(out, format, 'r2', klineRows([...bars('BTCUSDT', '1m', T0 + 6 * 3600, 20, 60), ...bars('BTCUSDT', '1h', T0, 30, 3600)]));
  await commitRun(out, format, 'r3', klineRows(bars('ETHUSDT', '1h', T0 + 3600, 10, 3600)));
}

export interface Truth {
  readonly rows: number;
  readonly series: Record<string, { rows: number; first: number; last: number }>;
}

/** What decoding every whole file finds (the way inspect used to work). */
export async function wholeFileTruth(out: string, format: LakeFormat): Promise<Truth> {
  const rows = await readLakeRecords(out, 'kline', format);
  const series: Record<string, { rows: number; first: number; last: number }> = {};
  for (const r of rows) {
    const s = (series[`${r.code} ${r.interval}`] ??= { rows: 0, first: r.ts, last: r.ts });
    s.rows++;
    s.first = Math.min(s.first, r.ts);
    s.last = Math.max(s.last, r.ts);
  }
  return { rows: rows.length, series };
}
