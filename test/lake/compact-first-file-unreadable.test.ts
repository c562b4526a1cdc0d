/**
 * `quotelake compact` takes the lake's DECIMAL(p,s) from its files, not from a pipeline. When the
 * manifest's first file is missing or damaged (what `repair` is for), compaction must still write
 * the lake's own type into the partitions it rewrites, and name no decoder error as a bug of its own:
 * it reads the type from the first file that can be read.
 */
import { readFile, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { KlineRow } from '../../src/core/records.js';
import type { Manifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { compactLake } from '../../src/lake/compact-lake.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { useDuckArrays } from '../helpers/duck-arrays.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, tempDir } from '../sinks/helpers.js';

const NARROW = { precision: 20, scale: 8 } as const;
const T_DAY = T0 - (T0 % 86400);
const clock = new ManualClock('2026-11-21T14:30:00Z');
const ctx = (runId: string) => ({ ...runContext(runId), clock });

const query = useDuckArrays();

function rows(interval: '1m' | '1h', from: number, to: number): KlineRow[] {
  const step = interval === '1m' ? 60 : 3600;
  const raw = [];
  for (let i = from; i < to; i++) raw.push(rawKline('BTCUSDT', interval, T_DAY + step * i, `${i}.5`));
  return klineRows(raw);
}

/**
 * A DECIMAL(20,8) lake: one 1h file (first in the manifest: `interval=1h` sorts before `interval=1m`)
 * and a 1m partition of four 30-row files, which compaction merges into one.
 */
async function narrowLake(): Promise<{ out: string; first: string }> {
  const out = await tempDir('ql-compact-first-');
  for (let run = 0; run < 4; run++) {
    const s = new PartitionedSink<KlineRow>({
      outputDir: out,
      spec: klineSpec,
      encoder: parquetEncoder({ rowGroupRows: 131072 }),
      decimal: NARROW,
      maxRowsPerFile: 1_000_000,
      maxBufferedRows: 30,
      maxBufferedBytes: 1 << 30,
    });
    await s.write({ stream: 'k', seq: 1, records: [...rows('1m', run * 30, run * 30 + 30), ...(run === 0 ? rows('1h', 0, 10) : [])] }, ctx(`r${run}`));
    await s.commit(ctx(`r${run}`));
    await s.close();
  }
  const m = await manifestOf(out);
  expect(m.files.map((f) => f.path.split('/')[0])).toEqual(['interval=1h', 'interval=1m', 'interval=1m', 'interval=1m', 'interval=1m']);
  return { out, first: join(out, 'kline', m.files[0]!.path) };
}

async function manifestOf(out: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as Manifest;
}

/** DECIMAL(p,s) of `close` in each 1m file the manifest lists, and its rows read back. */
async function oneMinute(out: string): Promise<{ types: string[]; closes: string[] }> {
  const files = (await manifestOf(out)).files.filter((f) => f.path.startsWith('interval=1m/')).map((f) => `'${join(out, 'kline', f.path)}'`);
  const types = await query(`SELECT DISTINCT precision || ',' || scale FROM parquet_schema([${files.join(',')}]) WHERE name = 'close'`);
  const closes = await query(`SELECT close::VARCHAR FROM read_parquet([${files.join(',')}]) ORDER BY ts`);
  return { types: types.map((r) => String(r[0])), closes: closes.map((r) => String(r[0])) };
}

const expectedCloses = Array.from({ length: 120 }, (_, i) => `${i}.50000000`);

describe('compact when the manifest\'s first file cannot be read', () => {
  it('a missing first file: the partitions it compacts keep the lake\'s DECIMAL(20,8)', async () => {
    const { out, first } = await narrowLake();
    await rm(first);
    const [report] = await compactLake(out, { ctx: ctx('compact-1'), dryRun: false, retiredGraceMs: 300_000 });
    expect(report).toEqual(expect.objectContaining({ filesBefore: 5, filesAfter: 2, compactedPartitions: 1 }));
    expect(await oneMinute(out)).toEqual({ types: ['20,8'], closes: expectedCloses });
  });

  it('a damaged first file: the dry run and the compaction go on, with the lake\'s DECIMAL(20,8)', async () => {
    const { out, first } = await narrowLake();
    await truncate(first, 100);
    const [plan] = await compactLake(out, { ctx: ctx('compact-dry'), dryRun: true, retiredGraceMs: 300_000 });
    expect(plan).toEqual(expect.objectContaining({ filesBefore: 5, filesAfter: 2, compactedPartitions: 1 }));
    const [report] = await compactLake(out, { ctx: ctx('compact-2'), dryRun: false, retiredGraceMs: 300_000 });
    expect(report).toEqual(expect.objectContaining({ filesBefore: 5, filesAfter: 2, compactedPartitions: 1 }));
    expect(await oneMinute(out)).toEqual({ types: ['20,8'], closes: expectedCloses });
  });
});
