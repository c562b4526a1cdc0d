import { Field, Schema, Utf8, Int32 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { mergeFileMetadata, sameColumnTypes, unionRanges } from '../../src/lake/commit/file-compaction.js';

describe('file compaction helpers', () => {
  it('unites key ranges per group', () => {
    expect(unionRanges([{ A: [5, 9], B: [1, 1] }, { A: [1, 3], C: ['x', 'y'] }, { A: [7, 12] }])).toEqual({ A: [1, 12], B: [1, 1], C: ['x', 'y'] });
  });

  it('unites source endpoints and keeps every other key', () => {
    const merged = mergeFileMetadata([
      new Map([['quotelake.dataset', 'kline'], ['quotelake.source_endpoint', '/kline']]),
      new Map([['quotelake.dataset', 'kline'], ['quotelake.source_endpoint', '/kline/latest,/kline']]),
    ]);
    expect(Object.fromEntries(merged)).toEqual({ 'quotelake.dataset': 'kline', 'quotelake.source_endpoint': '/kline,/kline/latest' });
  });

  it('compares column names and types, not nullability or metadata', () => {
    const a = new Schema([new Field('code', new Utf8(), false), new Field('n', new Int32(), true)]);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8(), true), new Field('n', new Int32(), false)], new Map([['k', 'v']])))).toBe(true);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8()), new Field('m', new Int32())]))).toBe(false);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8()), new Field('n', new Utf8())]))).toBe(false);
    expect(sameColumnTypes(a, new Schema([new Field('code', new Utf8())]))).toBe(false);
  });
});
