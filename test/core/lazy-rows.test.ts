/** lazyRows: an array made on its first read, with its lane beside it until it is written to. */
import { describe, expect, it } from 'vitest';
import { laneOf, lazyRows } from '../../src/core/lazy-rows.js';

function counted(n: number) {
  const calls = { made: 0 };
  const lane = { rowBytes: 10 };
  const rows = lazyRows(n, () => {
    calls.made++;
    return Array.from({ length: n }, (_, i) => ({ i }));
  }, lane);
  return { rows, calls, lane };
}

describe('lazyRows', () => {
  it('answers its length and its lane without making a row', () => {
    const { rows, calls, lane } = counted(3);
    expect(rows.length).toBe(3);
    expect(laneOf(rows)).toBe(lane);
    expect(calls.made).toBe(0);
    expect(laneOf([{ i: 0 }])).toBeUndefined();
  });

  it('reads as the array it stands for, made once on the first read', () => {
    const { rows, calls } = counted(3);
    expect(Array.isArray(rows)).toBe(true);
    expect(rows[1]).toEqual({ i: 1 });
    expect(calls.made).toBe(1);
    expect([...rows]).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    expect(rows.map((r) => r.i)).toEqual([0, 1, 2]);
    expect(rows.slice(1)).toEqual([{ i: 1 }, { i: 2 }]);
    expect(JSON.stringify(rows)).toBe('[{"i":0},{"i":1},{"i":2}]');
    expect(Object.keys(rows)).toEqual(['0', '1', '2']);
    expect(rows).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    expect(2 in rows).toBe(true);
    expect(calls.made).toBe(1);
  });

  it('a spread or JSON of it is made in full, the same as on first read', () => {
    const { rows } = counted(2);
    expect(JSON.parse(JSON.stringify({ records: rows }))).toEqual({ records: [{ i: 0 }, { i: 1 }] });
    const copy = [...rows];
    expect(laneOf(copy)).toBeUndefined();
  });

  it('a write works as on any array, and the lane no longer stands beside the changed rows', () => {
    const { rows, calls, lane } = counted(3);
    const writable = rows as unknown as { i: number }[];
    expect(laneOf(rows)).toBe(lane);
    writable.sort((a, b) => b.i - a.i);
    expect(calls.made).toBe(1);
    expect(laneOf(rows)).toBeUndefined();
    expect(rows).toEqual([{ i: 2 }, { i: 1 }, { i: 0 }]);
    writable.push({ i: 9 });
    expect(rows.length).toBe(4);
    writable[0] = { i: 7 };
    writable.length = 2;
    expect([...rows]).toEqual([{ i: 7 }, { i: 1 }]);
  });

  it('a first write, before any read, makes the rows and drops the lane too', () => {
    const { rows, calls } = counted(2);
    (rows as unknown as { i: number }[])[1] = { i: 5 };
    expect(calls.made).toBe(1);
    expect(laneOf(rows)).toBeUndefined();
    expect(rows).toEqual([{ i: 0 }, { i: 5 }]);
  });

  it('says so when what it made is not as long as promised', () => {
    const rows = lazyRows(2, () => [1]);
    expect(() => rows[0]).toThrow('made 1 rows, expected 2');
  });
});
