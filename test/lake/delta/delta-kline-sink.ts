/** The sink of a Delta kline table in a local folder, as a run builds it (microsecond instants, the default decimal). */
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import { PartitionedSink } from '../../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';

export function deltaKlineSink(out: string): PartitionedSink<unknown> {
  return new PartitionedSink({
    outputDir: out,
    spec: klineSpec,
    encoder: parquetEncoder({ rowGroupRows: 131072, timestampUnit: 'us' }),
    decimal: DEFAULT_DECIMAL,
    maxRowsPerFile: 1_000_000,
    maxBufferedRows: 200_000,
    maxBufferedBytes: 1 << 30,
    table: 'delta',
    pipeline: 'p',
  }) as PartitionedSink<unknown>;
}
