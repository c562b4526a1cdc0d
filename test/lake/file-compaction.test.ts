import { Field, Schema, Utf8, Int32 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { mergeFileMetadata, sameColumnTypes } from '../../src/lake/commit/file-compaction.js';
import { widenRange, type KeyRanges } from '../../src/lake/commit/key-ranges.js';

describe('file compaction helpers', () => {
  it('unites key ranges per group', () => {
    const ranges: KeyRanges = {};
    for (const file of [{ A: [5, 9], B: [1, 1] }, { A: [1, 3], C: ['x', 'y'] }, { A: [7, 12] }] as KeyRanges[]) {
      for (const [group, [lo, hi]] of Object.entries(file)) widenRange(ranges, group, lo, hi);
    }
    expect(ranges).toEqual({ A: [1, 12], B: [1, 1], C: ['x', 'y'] });
  });

  it('unites source endpoints and series, takes the merging run\'s provenance, keeps every other key', () => {
    const series = (v: object) => JSON.stringify(v);
    const merged = mergeFileMetadata(
      [
        new Map([['quotelake.dataset', 'kline'], ['quotelake.run_id', 'r1'], ['created_by', 'quotelake version 0.1.0 (build aaa)'], ['quotelake.ts', 'bar open time (UTC)'], ['quotelake.source_endpoint', '/quote-b-api/kline'], ['quotelake.series', series({ A: { rows: 2, first: 10, last: 20 } })]]),
        new Map([['quotelake.dataset', 'kline'], ['quotelake.run_id', 'r2'], ['quotelake.source_endpoint', '/quote-stock-b-api/kline,/quote-b-api/kline'], ['quotelake.series', series({ A: { rows: 1, first: 5, last: 5 }, B: { rows: 3, first: null, last: null } })]]),
      ],
      new Map([['created_by', 'quotelake version 9.9.9 (build bbb)'], ['quotelake.run_id', 'r3'], ['quotelake.dataset', 'kline']]),
    );
    expect(Object.fromEntries(merged)).toEqual({
      created_by: 'quotelake version 9.9.9 (build bbb)',
      'quotelake.run_id': 'r3',
      'quotelake.dataset': 'kline',
      'quotelake.ts': 'bar open time (UTC)',
      'quotelake.source_endpoint': '/quote-b-api/kline,/quote-stock-b-api/kline',
      'quotelake.series': series({ A: { rows: 3, first: 5, last: 20 }, B: { rows: 3, first: null, last: null } }),
    });
  });

  it('leaves the series out when a file lacks it (0.1.0), unless the merge counted its own rows', () => {
    const files = [new Map([['quotelake.series', '{"A":{"rows":1,"first":1,"last":1}}']]), new Map<string, string>()];
    expect(mergeFileMetadata(files, new Map()).has('quotelake.series')).toBe(false);
    const own = new Map([['A', { rows: 7, first: 1, last: 9 }]]);
    expect(mergeFileMetadata(files, new Map(), own).get('quotelake.series')).toBe('{"A":{"rows":7,"first":1,"last":9}}');
  });

  it('compares column names and types, not nullability or metadata', () => {
    const a = new Schema([new Field('code', new Utf8(), false), new Field('n', new Int32(), true)]);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8(), true), new Field('n', new Int32(), false)], new Map([['k', 'v']])))).toBe(true);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8()), new Field('m', new Int32())]))).toBe(false);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8()), new Field('n', new Utf8())]))).toBe(false);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8())]))).toBe(false);
  });
});
