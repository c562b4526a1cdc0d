/**
 * `compact` on a lake whose sink `decimal` was widened between runs: the older partitions keep the
 * narrow type, the newer ones the wide one. Compaction rewrites a partition in one type for the
 * dataset; taking the first file's (the narrow one) made it refuse the wide partition's values
 * ("does not fit DECIMAL(20,8)") on every attempt. It must take a type every file's values fit.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { formatDecimalWords, type DecimalType } from '../../src/core/decimal.js';
import type { DepthRow, KlineRow } from '../../src/core/records.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { readManifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { compactLake } from '../../src/lake/compact-lake.js';
import { depthSpec } from '../../src/lake/datasets/depth.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { depthRows, klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, tempDir } from '../sinks/helpers.js';

const T_DAY = T0 - (T0 % 86400);
const clock = new ManualClock('2026-11-21T14:30:00Z');
const opened: PartitionedSink<KlineRow | DepthRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function commit(out: string, runId: string, decimal: DecimalType, raw: ReturnType<typeof rawKline>[]): Promise<void> {
  const sink = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder: arrowEncoder(), decimal, maxRowsPerFile: 10, maxBufferedRows: 1000, maxBufferedBytes: 1 << 30 });
  opened.push(sink as never);
  const ctx = { ...runContext(runId), clock };
  await sink.write({ stream: 'k', seq: 1, records: klineRows(raw) }, ctx);
  await sink.commit(ctx);
}

/** Every row of the live files as `ts close turnover`, decimals exact, in time order. */
async function rowsOf(out: string): Promise<string[]> {
  const rows: string[] = [];
  for (const f of (await readManifest(out, 'kline', 'arrow'))!.files) {
    const table = tableFromIPC(await readFile(join(out, 'kline', f.path)));
    const scale = (table.schema.fields.find((x) => x.name === 'close')!.type as { scale: number }).scale;
    for (const r of table) rows.push(`${String(r.ts)} ${formatDecimalWords(r.close as Uint32Array, 0, scale)} ${formatDecimalWords(r.turnover as Uint32Array, 0, scale)}`);
  }
  return rows.sort();
}

describe('compact over partitions written with different DECIMAL types', () => {
  it('compacts the wide partition without refusing its values; every value kept exactly', async () => {
    const out = await tempDir('ql-compact-mixed-');
    // Day 1 under DECIMAL(20,8) (its path sorts first), day 2 under DECIMAL(38,18) in files of 10 rows,
    // with a turnover of 16 integer digits that DECIMAL(20,8) cannot hold.
    const day1 = Array.from({ length: 5 }, (_, i) => rawKline('BTCUSDT', '1m', T_DAY + 60 * i, `1.${i}`));
    await commit(out, 'r1', { precision: 20, scale: 8 }, day1);
    for (let run = 0; run < 3; run++) {
      const day2 = Array.from({ length: 10 }, (_, i) => rawKline('BTCUSDT', '1m', T_DAY + 86400 + 60 * (run * 10 + i), `2.${run}${i}`, true, '1234567890123456.123456789012345678'));
      await commit(out, `r2-${run}`, { precision: 38, scale: 18 }, day2);
    }
    const before = await rowsOf(out);
    expect(before.length).toBe(35);
    expect(before).toContain(`${(T_DAY + 86400) * 1000} 2 1234567890123456.123456789012345678`);

    const [report] = await compactLake(out, { ctx: { ...runContext('compact-1'), clock }, dryRun: false, retiredGraceMs: 0 });
    expect(report).toEqual(expect.objectContaining({ dataset: 'kline', format: 'arrow', filesBefore: 4, filesAfter: 2, compactedPartitions: 1, rows: 35 }));
    expect(await rowsOf(out)).toEqual(before);
  });

  it('keeps the DECIMAL(p,s) of an order-book dataset, whose decimals are only inside its book levels', async () => {
    const out = await tempDir('ql-compact-depth-');
    const narrow = { precision: 20, scale: 8 };
    for (let run = 0; run < 3; run++) {
      const sink = new PartitionedSink<DepthRow>({ outputDir: out, spec: depthSpec, encoder: arrowEncoder(), decimal: narrow, maxRowsPerFile: 2, maxBufferedRows: 1000, maxBufferedBytes: 1 << 30 });
      opened.push(sink as never);
      const ctx = { ...runContext(`d${run}`), clock };
      const ticks = Array.from({ length: 2 }, (_, i) => ({
        tick: { code: 'BTCUSDT', seq: String(run * 2 + i), tick_time: String(T_DAY * 1000 + run * 2 + i), bids: [{ price: '91234.56', volume: '0.00012345' }], asks: [{ price: '91234.57', volume: '1.5' }] },
        fetchedAtMs: T_DAY * 1000 + 10_000,
      }));
      await sink.write({ stream: 'd', seq: 1, records: depthRows(ticks) }, ctx);
      await sink.commit(ctx);
    }
    const [report] = await compactLake(out, { ctx: { ...runContext('compact-d'), clock }, dryRun: false, retiredGraceMs: 0 });
    expect(report).toEqual(expect.objectContaining({ dataset: 'depth', filesBefore: 3, filesAfter: 1, rows: 6 }));
    const [file] = (await readManifest(out, 'depth', 'arrow'))!.files;
    const table = tableFromIPC(await readFile(join(out, 'depth', file!.path)));
    expect(String(table.schema.fields.find((f) => f.name === 'bids')!.type)).toBe('List<Struct<{price:Decimal[20e+8], volume:Decimal[20e+8]}>>');
    const level = table.get(0)!.bids.get(0);
    expect([formatDecimalWords(level.price, 0, 8), formatDecimalWords(level.volume, 0, 8)]).toEqual(['91234.56', '0.00012345']);
  });
});
