import { Int32, makeData } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { rowStretches, sliceStretches } from '../../src/lake/columns/row-stretches.js';

const picks = (rows: number[], chunk = 0) => ({ chunk: new Int32Array(rows.length).fill(chunk), row: Int32Array.from(rows) });
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('a file\'s rows as stretches of its columns', () => {
  it('names long stretches of one chunk as [first row, count] pairs, in pick order', () => {
    // Three pages of a backward walk, newest first, put in key order: the oldest page first.
    expect(rowStretches(picks([...range(800, 100), ...range(400, 400), ...range(0, 400)]))).toEqual(Int32Array.of(800, 100, 400, 400, 0, 400));
    expect(rowStretches(picks(range(0, 64)))).toEqual(Int32Array.of(0, 64));
  });

  it('leaves short or scattered stretches, and rows of other chunks, to be copied', () => {
    expect(rowStretches(picks([...range(100, 100), 5, 7, ...range(0, 5)]))).toBeUndefined();
    expect(rowStretches(picks(range(0, 63)))).toBeUndefined();
    expect(rowStretches(picks(range(0, 500), 1))).toBeUndefined();
    expect(rowStretches({ chunk: Int32Array.from([...new Array(200).fill(0), 1]), row: Int32Array.from([...range(0, 200), 0]) })).toBeUndefined();
  });

  it('slices each column by the stretches, in order, without copying', () => {
    const values = Int32Array.from(range(0, 1000), (v) => v * 3);
    const column = makeData({ type: new Int32(), length: 1000, data: values });
    const sliced = sliceStretches([column], Int32Array.of(900, 100, 0, 200));
    expect(sliced.map((batch) => [...batch[0]!.values.subarray(0, batch[0]!.length)])).toEqual([range(900, 100).map((v) => v * 3), range(0, 200).map((v) => v * 3)]);
    expect(sliced.every((batch) => batch[0]!.values.buffer === values.buffer)).toBe(true);
    expect(sliceStretches([column], undefined)).toEqual([[column]]);
  });
});
