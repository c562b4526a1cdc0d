/** What a `state reset --stream` that matched nothing lists: each checkpoint once, with its pipeline when there are several. */
import { describe, expect, it } from 'vitest';
import { checkpointsThere } from '../../src/cli/state/checkpoints-there.js';

describe('checkpointsThere', () => {
  it('one pipeline: its streams alone, sorted', () => {
    expect(checkpointsThere([{ pipeline: 'demo', streams: ['kline/BTCUSDT/1m', 'kline/AAPL.US/1h'] }])).toBe('; its checkpoints: kline/AAPL.US/1h, kline/BTCUSDT/1m');
  });

  it('several pipelines holding one stream: each named with its pipeline, once', () => {
    const held = [
      { pipeline: 'demo-kline-latest', streams: ['kline/600000.SH/1h'] },
      { pipeline: 'demo', streams: ['kline/600000.SH/1h', 'kline/600000.SH/1d'] },
      { pipeline: 'demo', streams: ['kline/600000.SH/1h'] },
    ];
    expect(checkpointsThere(held)).toBe('; its checkpoints: demo: kline/600000.SH/1d, demo: kline/600000.SH/1h, demo-kline-latest: kline/600000.SH/1h');
  });

  it('nothing held: nothing said; past eight: counted', () => {
    expect(checkpointsThere([])).toBe('');
    expect(checkpointsThere([{ pipeline: 'p', streams: [] }])).toBe('');
    const streams = Array.from({ length: 10 }, (_, i) => `depth/${String(i)}`);
    expect(checkpointsThere([{ pipeline: 'p', streams }])).toBe(`; its checkpoints: ${streams.slice(0, 8).join(', ')} and 2 more ("quotelake state show" lists them)`);
  });
});
