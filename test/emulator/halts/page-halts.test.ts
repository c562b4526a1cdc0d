import { describe, expect, it } from 'vitest';
import type { WireHaltRecord } from '../../../src/emulator/contracts.js';
import { HaltArchive, pageHalts, parseHaltPaging, type HaltPage } from '../../../src/emulator/halts/index.js';

const NOW = Date.parse('2026-11-22T00:30:00Z');
const archive = new HaltArchive(3);
const records = archive.records('nasdaq', NOW);

function ok(result: ReturnType<typeof pageHalts>): HaltPage {
  if (!result.ok) throw new Error(result.error);
  return result.page;
}

describe('pageHalts (S1)', () => {
  it.each([1, 7, 100, 499, 500])('size %i: the pages concatenate to the full list, last page partial', (size) => {
    const totalPages = Math.ceil(records.length / size);
    const all: WireHaltRecord[] = [];
    for (let page = 1; page <= totalPages; page++) {
      const p = ok(archive.page(records, page, size));
      expect(p.totalCount).toBe(records.length);
      expect(p.totalPages).toBe(totalPages);
      expect(p.currentPage).toBe(page);
      expect(p.currentSize).toBe(p.data.length);
      expect(p.data.length).toBe(page < totalPages ? size : records.length - (totalPages - 1) * size);
      all.push(...p.data);
    }
    expect(all).toEqual(records);
  });

  it('a page past the end is empty and keeps the true totals', () => {
    expect(records.length % 100).not.toBe(0);
    const p = ok(pageHalts(records, 1000, 100));
    expect(p).toEqual({
      data: [], totalCount: records.length, totalPages: Math.ceil(records.length / 100), currentPage: 1000, currentSize: 0,
    });
  });

  it('an empty list has zero pages', () => {
    expect(ok(pageHalts([], 1, 10))).toEqual({ data: [], totalCount: 0, totalPages: 0, currentPage: 1, currentSize: 0 });
  });

  it('matches the documented paged example (89 records, page 2 of size 2)', () => {
    const list = records.slice(0, 89);
    const p = ok(pageHalts(list, 2, 2));
    expect({ totalCount: p.totalCount, totalPages: p.totalPages, currentPage: p.currentPage, currentSize: p.currentSize })
      .toEqual({ totalCount: 89, totalPages: 45, currentPage: 2, currentSize: 2 });
    expect(p.data).toEqual([list[2], list[3]]);
    expect(ok(pageHalts(list, 45, 2)).data).toEqual([list[88]]);
  });

  it.each([
    [0, 10, /invalid page: 0/],
    [-1, 10, /invalid page: -1/],
    [1.5, 10, /invalid page: 1.5/],
    [Number.NaN, 10, /invalid page: NaN/],
    [1, 0, /invalid size: 0 \(must be an integer 1..500\)/],
    [1, 501, /invalid size: 501/],
    [1, 2.5, /invalid size: 2.5/],
    [1, -3, /invalid size: -3/],
  ])('page %s size %s is an error (HTTP 500 in the HTTP layer)', (page, size, message) => {
    const result = pageHalts(records, page, size);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('parseHaltPaging (query-string page and size)', () => {
  it('both absent: the whole year, unpaged', () => {
    expect(parseHaltPaging(null, null)).toEqual({ ok: true, paging: null });
    expect(parseHaltPaging(undefined, undefined)).toEqual({ ok: true, paging: null });
  });

  it('both present and in range: numbers', () => {
    expect(parseHaltPaging('2', '2')).toEqual({ ok: true, paging: { page: 2, size: 2 } });
    expect(parseHaltPaging('1', '500')).toEqual({ ok: true, paging: { page: 1, size: 500 } });
    expect(parseHaltPaging('99999', '1')).toEqual({ ok: true, paging: { page: 99999, size: 1 } });
    // Past 15 digits, up to 2^53 - 1: still a page (past the end), not an error.
    expect(parseHaltPaging('9007199254740991', '500')).toEqual({ ok: true, paging: { page: 9007199254740991, size: 500 } });
    expect(parseHaltPaging('0000000000000000002', '2')).toEqual({ ok: true, paging: { page: 2, size: 2 } });
  });

  it.each([
    ['1', null, /page and size must be given together \(page="1", size=absent\)/],
    [null, '10', /page and size must be given together/],
    ['0', '10', /invalid page: "0"/],
    ['-1', '10', /invalid page: "-1"/],
    ['abc', '10', /invalid page: "abc"/],
    ['', '10', /invalid page: ""/],
    [' 1', '10', /invalid page/],
    ['1.0', '10', /invalid page/],
    ['1e2', '10', /invalid page/],
    ['1', '0', /invalid size: "0" \(must be an integer 1..500\)/],
    ['1', '501', /invalid size: "501"/],
    ['1', '10x', /invalid size/],
    ['1', '9'.repeat(60), /invalid size: "9{40}…"/],
    ['9007199254740992', '10', /^invalid page: "9007199254740992" \(must be at most 9007199254740991\)$/],
    ['9'.repeat(60), '10', /^invalid page: "9{40}…" \(must be at most 9007199254740991\)$/],
  ])('page %j size %j is an error', (page, size, message) => {
    const result = parseHaltPaging(page, size);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});
