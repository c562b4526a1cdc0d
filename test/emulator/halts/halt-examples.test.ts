import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HaltExchange, WireHaltRecord } from '../../../src/emulator/contracts.js';
import { HaltArchive } from '../../../src/emulator/halts/index.js';
import { EXCHANGES, LAYOUTS, has, text } from './halt-layouts.js';

/** The provider's documented suspension responses, copied from the shared spec. */
function example(name: string): { data: WireHaltRecord[]; [k: string]: unknown } {
  return JSON.parse(readFileSync(new URL(`../../fixtures/api/${name}`, import.meta.url), 'utf8')) as {
    data: WireHaltRecord[];
  };
}

const EXAMPLES: Readonly<Record<HaltExchange, readonly WireHaltRecord[]>> = {
  sse: example('suspension-sse.json').data,
  nyse: [...example('suspension-nyse.json').data, ...example('suspension-paged.json').data],
  nasdaq: example('suspension-nasdaq.json').data,
};

/** The shape of a value: digits become \d, so "2024-01-15 13:45:00" and "2026-03-08 02:30:00" agree. */
function shape(value: string): string {
  return value.replace(/[0-9]/g, '9');
}

const TIME_FIELDS = ['haltDate', 'haltTime', 'haltDateTime', 'resumeDate', 'resumeTime', 'resumeDateTime', 'publishDate'];

describe('halt records against the documented examples', () => {
  const archive = new HaltArchive(5);
  const now = Date.parse('2026-11-22T00:30:00Z');

  it.each(EXCHANGES)('%s: the examples fit the layout this suite checks against', (exchange) => {
    for (const r of EXAMPLES[exchange]) {
      for (const key of Object.keys(r)) expect(LAYOUTS[exchange]).toContain(key);
    }
  });

  it.each(EXCHANGES)('%s: records use only keys the layout and examples know, with the same value shapes', (exchange) => {
    const records = archive.records(exchange, now);
    const exampleShapes = new Map<string, string>();
    for (const r of EXAMPLES[exchange]) {
      for (const key of TIME_FIELDS) if (has(r, key)) exampleShapes.set(key, shape(text(r, key)));
    }
    const problems: string[] = [];
    for (const r of records) {
      for (const [key, value] of Object.entries(r)) {
        if (!LAYOUTS[exchange].includes(key)) problems.push(`unknown key ${key}`);
        if (value !== null && typeof value !== 'string') problems.push(`${key} is a ${typeof value}`);
        const expected = exampleShapes.get(key);
        if (expected !== undefined && typeof value === 'string' && value !== '' && shape(value) !== expected) {
          problems.push(`${key} ${value} is not shaped like ${expected}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every time field of the layout had an example value to compare against.
    expect([...exampleShapes.keys()].sort()).toEqual(TIME_FIELDS.filter((k) => LAYOUTS[exchange].includes(k)).sort());
  });

  it('NASDAQ thresholds look like the example ("145.50")', () => {
    expect(EXAMPLES.nasdaq[0]?.pauseThresholdPrice).toBe('145.50');
    const prices = archive.records('nasdaq', now).filter((r) => has(r, 'pauseThresholdPrice'));
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.filter((r) => !/^\d+\.\d+$/.test(text(r, 'pauseThresholdPrice')))).toEqual([]);
  });

  it('the paged example envelope agrees with S1 totals', () => {
    const paged = example('suspension-paged.json');
    expect(paged.totalPages).toBe(Math.ceil((paged.totalCount as number) / 2));
    expect(paged.currentSize).toBe(paged.data.length);
  });
});
