import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { parquetSink } from '../../src/sinks/parquet/index.js';
import type { Sink } from '../../src/core/component.js';
import type { KlineRow } from '../../src/core/records.js';
import { BIG_TURNOVER, klineRows, rawKline, SHIB_CLOSE, T0 } from './fixtures.js';
import { duck, runContext, sinkEnv } from './helpers.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { BACKENDS, useTestLakes } from '../lake/test-lakes.js';

const opened: Sink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function makeSink(out: string, encodeWorkers: number, storage: LakeStorage | undefined): Sink<KlineRow> {
  const sink = parquetSink.create(parquetSink.configSchema.parse({ encodeWorkers, encodeWorkersAfterRows: 0 }), { ...sinkEnv(out, 'kline'), ...(storage ? { storage } : {}) }) as Sink<KlineRow>;
  opened.push(sink);
  return sink;
}

const cases = BACKENDS.flatMap((backend) => [['encoded in a worker', backend, 1] as const, ['encoded on the calling thread', backend, 0] as const]);

describe.each(cases)('parquet sink, %s (%s)', (_mode, backend, encodeWorkers) => {
  const lakes = useTestLakes(backend);
  const klineSink = (out: string) => makeSink(out, encodeWorkers, lakes.storage(out));

  it('writes hive partitions DuckDB reads back exactly, DECIMAL(38,18) and TIMESTAMPTZ', async () => {
    const out = await lakes.fresh();
    const ctx = runContext('r1');
    const sink = klineSink(out);
    const rows = klineRows([
      rawKline('SHIBUSDT', '1m', T0, SHIB_CLOSE),
      rawKline('SHIBUSDT', '1m', T0 + 60, '0.000018712345600000', false, BIG_TURNOVER),
      rawKline('BTCUSDT', '1d', T0 - 7 * 3600, '91498.20'),
    ]);
    await sink.write({ stream: 'kline/SHIBUSDT/1m', seq: 1, records: rows }, ctx);
    await sink.flush(ctx);
    expect((await lakes.keys(out)).filter((f) => f.startsWith('kline'))).toEqual([]);
    const receipt = await sink.commit(ctx);
    expect(receipt.rows).toBe(3);
    expect(receipt.files.map((f) => f.path).sort()).toEqual([
      'kline/interval=1d/year=2025/date=__HIVE_DEFAULT_PARTITION__/part-r1-00002.parquet',
      'kline/interval=1m/year=2025/date=2025-11-19/part-r1-00001.parquet',
    ]);
    // On S3 a table is Delta unless the pipeline says otherwise: its log beside the hive files.
    expect(await lakes.keys(out)).toEqual([
      '_quotelake/manifests/kline.parquet.json',
      ...(backend === 's3' ? ['kline/_delta_log/00000000000000000000.json'] : []),
      'kline/interval=1d/year=2025/date=__HIVE_DEFAULT_PARTITION__/part-r1-00002.parquet',
      'kline/interval=1m/year=2025/date=2025-11-19/part-r1-00001.parquet',
    ]);
    const dir = await lakes.localCopy(out);
    // Every path has the same keys, so ONE hive glob reads the whole tree; yearly partitions have date NULL.
    const cols = `code, interval, ts::varchar ts, typeof(ts) tt, close::varchar "close", turnover::varchar turnover, typeof(close) ct, final`;
    const all = await duck(`select ${cols}, year::varchar "year", date::varchar "date", typeof(date) dt from read_parquet('${dir}/kline/**/*.parquet', hive_partitioning=true) order by interval, ts`);
    expect(all).toEqual([
      { code: 'BTCUSDT', interval: '1d', year: '2025', date: null, dt: 'DATE', ts: '2025-11-19 00:00:00+00', tt: 'TIMESTAMP WITH TIME ZONE', close: '91498.200000000000000000', turnover: '1175337.446831500000000000', ct: 'DECIMAL(38,18)', final: true },
      { code: 'SHIBUSDT', interval: '1m', year: '2025', date: '2025-11-19', dt: 'DATE', ts: '2025-11-19 07:00:00+00', tt: 'TIMESTAMP WITH TIME ZONE', close: '0.000018712345600000', turnover: '1175337.446831500000000000', ct: 'DECIMAL(38,18)', final: true },
      { code: 'SHIBUSDT', interval: '1m', year: '2025', date: '2025-11-19', dt: 'DATE', ts: '2025-11-19 07:01:00+00', tt: 'TIMESTAMP WITH TIME ZONE', close: '0.000018712345600000', turnover: BIG_TURNOVER, ct: 'DECIMAL(38,18)', final: false },
    ]);
    const meta = await duck(`select decode(key) k, decode(value) v from parquet_kv_metadata('${dir}/kline/interval=1m/year=2025/date=2025-11-19/part-r1-00001.parquet') where k like 'quotelake.%' order by k`);
    expect(meta).toEqual([
      { k: 'quotelake.bar_time', v: 'open' },
      { k: 'quotelake.dataset', v: 'kline' },
      { k: 'quotelake.layout_version', v: '2' },
      { k: 'quotelake.run_id', v: 'r1' },
      { k: 'quotelake.schema_version', v: '2' },
      { k: 'quotelake.series', v: '{"SHIBUSDT":{"rows":2,"first":1763535600000,"last":1763535660000}}' },
      { k: 'quotelake.source_endpoint', v: '/kline' },
      { k: 'quotelake.ts', v: 'bar open time (UTC)' },
      { k: 'quotelake.version', v: JSON.parse(await readFile('package.json', 'utf8')).version },
    ]);
    const compression = await duck(`select distinct compression from parquet_metadata('${dir}/kline/interval=1m/year=2025/date=2025-11-19/part-r1-00001.parquet')`);
    expect(compression).toEqual([{ compression: 'ZSTD' }]);
  });

  it('a tree of intraday intervals reads through one **/*.parquet glob with partition columns', async () => {
    const out = await lakes.fresh();
    const ctx = runContext('r1');
    const sink = klineSink(out);
    const rows = klineRows([rawKline('BTCUSDT', '1m', T0, '1.5'), rawKline('BTCUSDT', '5m', T0 + 86400, '2.25'), rawKline('ETHUSDT', '1h', T0, '3')]);
    await sink.write({ stream: 'k', seq: 1, records: rows }, ctx);
    await sink.commit(ctx);
    const got = await duck(`select interval, date::varchar date, count(*)::int n, sum(close)::varchar s from read_parquet('${await lakes.localCopy(out)}/kline/**/*.parquet', hive_partitioning=true) group by all order by all`);
    expect(got).toEqual([
      { interval: '1h', date: '2025-11-19', n: 1, s: '3.000000000000000000' },
      { interval: '1m', date: '2025-11-19', n: 1, s: '1.500000000000000000' },
      { interval: '5m', date: '2025-11-20', n: 1, s: '2.250000000000000000' },
    ]);
  });
});
