/** How `state show` reads a checkpoint: UTC, the product's local time beside it, the lake folder. */
import { describe, expect, it } from 'vitest';
import { describeStream } from '../../src/cli/state/describe-stream.js';
import { renderPipelineState } from '../../src/cli/state/render-state.js';

const sec = (iso: string) => Date.parse(iso) / 1000;

describe('describeStream', () => {
  it('a K-line series of a zoned product: UTC and local text, walk and history start', () => {
    const s = describeStream(
      { stream: 'kline/AAPL.US/1m', position: { watermark: sec('2026-11-11T20:59:00Z'), low: sec('2026-11-11T14:30:00Z'), walk: { next: sec('2026-11-11T14:30:00Z'), floor: sec('2026-10-27T08:00:00Z'), top: null }, begins: sec('2026-09-21T13:30:00Z') } },
      'out',
    );
    expect(s).toMatchObject({
      dataset: 'kline',
      code: 'AAPL.US',
      interval: '1m',
      watermark: { utc: '2026-11-11T20:59:00Z', epochMs: Date.parse('2026-11-11T20:59:00Z'), local: '2026-11-11T15:59:00-05:00', zone: 'America/New_York' },
      low: { utc: '2026-11-11T14:30:00Z', local: '2026-11-11T09:30:00-05:00' },
      walk: { next: { utc: '2026-11-11T14:30:00Z' }, floor: { utc: '2026-10-27T08:00:00Z', local: '2026-10-27T04:00:00-04:00' } },
      begins: { utc: '2026-09-21T13:30:00Z' },
      lake: 'out/kline/interval=1m',
    });
  });

  it('a UTC product has no local text; a first walk has no watermark yet', () => {
    const s = describeStream({ stream: 'kline/BTCUSDT/1h', position: { watermark: null, low: null, walk: { next: sec('2026-11-11T21:00:00Z'), floor: sec('2026-11-01T00:00:00Z'), top: null } } }, 'out');
    expect(s.watermark).toBeNull();
    expect(s.low).toBeNull();
    expect(s.walk?.next).toEqual({ utc: '2026-11-11T21:00:00Z', epochMs: Date.parse('2026-11-11T21:00:00Z') });
    expect(s.walk?.top).toBeUndefined();
  });

  it('a walk that has delivered bars says up to which one the lake holds them', () => {
    const s = describeStream(
      { stream: 'kline/BTCUSDT/1m', position: { watermark: null, low: sec('2026-11-12T12:21:00Z'), walk: { next: sec('2026-11-12T12:20:00Z'), floor: sec('2026-10-21T12:00:00Z'), top: sec('2026-11-20T11:59:00Z') } } },
      'out',
    );
    expect(s.walk?.top?.utc).toBe('2026-11-20T11:59:00Z');
    const text = renderPipelineState({ pipeline: 'p', keepsState: true, stateDir: 'out/.state', streams: [{ ...s }] } as never);
    expect(text).toContain('watermark -, low 2026-11-12T12:21:00Z, walking back from 2026-11-20T11:59:00Z (held down to low): next 2026-11-12T12:20:00Z, down to 2026-10-21T12:00:00Z');
  });

  it('a lake on S3 keeps its URL whole', () => {
    const position = { watermark: null, low: null, walk: null };
    expect(describeStream({ stream: 'kline/BTCUSDT/1h', position }, 's3://lake/quotes').lake).toBe('s3://lake/quotes/kline/interval=1h');
    expect(describeStream({ stream: 'halt/SSE', position: {} }, 's3://lake/quotes/').lake).toBe('s3://lake/quotes/halt/exchange=SSE');
    expect(describeStream({ stream: 'depth', position: {} }, 's3://lake').lake).toBe('s3://lake/depth');
  });

  it('halts count the announcements held; snapshots show the last fetch', () => {
    expect(describeStream({ stream: 'halt/SSE', position: { seen: { a: 'x', b: 'y' }, total: 3 } }, 'out')).toMatchObject({
      dataset: 'halt',
      exchange: 'SSE',
      watermark: null,
      seen: 2,
      total: 3,
      lake: 'out/halt/exchange=SSE',
    });
    expect(describeStream({ stream: 'depth', position: { fetchedAt: Date.parse('2026-11-11T21:00:00.123Z'), round: 4 } }, 'out')).toMatchObject({
      dataset: 'depth',
      watermark: { utc: '2026-11-11T21:00:00.123Z' },
      round: 4,
      lake: 'out/depth',
    });
  });
});
