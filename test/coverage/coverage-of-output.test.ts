import { describe, expect, it } from 'vitest';
import { pipelineSeries } from '../../src/cli/run-job.js';
import { coverageOfOutput } from '../../src/coverage/index.js';
import { T0 } from '../sinks/fixtures.js';
import { tempDir } from '../sinks/helpers.js';
import { writeLake } from '../lake/reader/lake-fixture.js';

describe('coverage of an output through the lake reader', () => {
  it.each(['parquet', 'arrow'] as const)('%s: every series by default (inspect --coverage), only the given ones for a run', async (format) => {
    const out = await tempDir();
    await writeLake(out, format);
    const all = await coverageOfOutput(out, { format });
    expect(all.series.map((s) => `${s.code} ${s.interval}`)).toEqual(['BTCUSDT 1h', 'BTCUSDT 1m', 'ETHUSDT 1h', 'ETHUSDT 1m']);
    const btc = all.series.find((s) => s.code === 'BTCUSDT' && s.interval === '1m')!;
    expect(btc).toMatchObject({ first: T0 * 1000, last: (T0 + 6 * 3600 + 19 * 60) * 1000, bars: 110 });
    const mine = await coverageOfOutput(out, { format, series: [{ code: 'ETHUSDT', interval: '1h' }, { code: 'BTCUSDT', interval: '1m' }, { code: 'GOLD', interval: '1m' }] });
    expect(mine.series.map((s) => `${s.code} ${s.interval}`)).toEqual(['BTCUSDT 1m', 'ETHUSDT 1h']);
    expect(mine.series[0]).toEqual(btc);
  });

  it("a run's series are its pipeline's codes × intervals", () => {
    const job = { pipeline: { source: { type: 'kline-history', codes: ['BTCUSDT', 'AAPL.US'], intervals: ['1m', '1h'] } } } as never;
    expect(pipelineSeries(job)).toEqual([
      { code: 'BTCUSDT', interval: '1m' },
      { code: 'BTCUSDT', interval: '1h' },
      { code: 'AAPL.US', interval: '1m' },
      { code: 'AAPL.US', interval: '1h' },
    ]);
  });
});
