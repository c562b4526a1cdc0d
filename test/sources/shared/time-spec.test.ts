/**
 * `since` / `until`: an ISO date or date-time that exists, or a span back from now. A day the month
 * does not have (Date.parse would roll it over) is a problem of the pipeline file at its line, never
 * another day and never an internal error.
 */
import { describe, expect, it } from 'vitest';
import { components } from '../../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../../src/config/parse-pipeline.js';
import { resolveTimeSpec, timeSpecMs, timeSpecSchema } from '../../../src/sources/shared/time-spec.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('time specs', () => {
  it('resolves ISO forms (UTC unless an offset is given) and spans back from now', () => {
    expect(resolveTimeSpec('2028-02-29', NOW)).toBe(Date.parse('2028-02-29T00:00:00Z'));
    expect(resolveTimeSpec('2026-04-30 09:30', NOW)).toBe(Date.parse('2026-04-30T09:30:00Z'));
    expect(resolveTimeSpec('2026-04-30T09:30:00+02:00', NOW)).toBe(Date.parse('2026-04-30T07:30:00Z'));
    expect(resolveTimeSpec('3d', NOW)).toBe(NOW - 3 * 86_400_000);
  });

  it('reads what other tools print: lowercase t and z, a fraction to the nanosecond of zeros past the millisecond, offsets of hours alone', () => {
    const cases: [string, string][] = [
      ['2026-04-30t09:30:00z', '2026-04-30T09:30:00.000Z'],
      // Python's isoformat() with microseconds, Go's RFC 3339 with nanoseconds.
      ['2026-04-30T09:30:00.123000+00:00', '2026-04-30T09:30:00.123Z'],
      ['2026-04-30T09:30:00.123000000Z', '2026-04-30T09:30:00.123Z'],
      ['2026-04-30T09:30:00.5Z', '2026-04-30T09:30:00.500Z'],
      ['2026-04-30T09:30:00,25Z', '2026-04-30T09:30:00.250Z'],
      // PostgreSQL prints a timestamptz as 2026-04-30 09:30:00+00, or +05:30.
      ['2026-04-30 09:30:00+00', '2026-04-30T09:30:00.000Z'],
      ['2026-04-30 09:30:00+05:30', '2026-04-30T04:00:00.000Z'],
      ['2026-04-30T09:30-0400', '2026-04-30T13:30:00.000Z'],
      // Past midnight backwards: the offset moves the day too.
      ['2026-01-01T01:00:00+02', '2025-12-31T23:00:00.000Z'],
    ];
    for (const [text, utc] of cases) expect(new Date(resolveTimeSpec(text, NOW)).toISOString(), text).toBe(utc);
  });

  it('refuses an instant finer than a millisecond (never rounded), an offset hour over 23 or minute over 59, text around it', () => {
    for (const text of ['2026-04-30T09:30:00.1234Z', '2026-04-30T09:30:00.000001Z', '2026-04-30T09:30:00+24:00', '2026-04-30T09:30:00+05:60', '2026-04-30T09:30:00.Z', '2026-04-30T09:30:00 Z', '2026-04-30Z', 'x2026-04-30']) {
      expect(timeSpecMs(text, NOW), text).toBeNaN();
    }
  });

  it('refuses a day or time that does not exist instead of rolling it over', () => {
    for (const text of ['2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-01-01T24:00', '2026-01-01T10:60']) {
      expect(timeSpecSchema.safeParse(text).success, text).toBe(false);
      expect(timeSpecMs(text, NOW), text).toBeNaN();
      expect(() => resolveTimeSpec(text, NOW), text).toThrow(`not a time: ${text}`);
    }
  });

  it('in a pipeline file: the impossible date at its line, beside the other problems of the same source', () => {
    const text = ['name: t', 'source:', '  type: kline-history', '  codes: [BTCUSDT, NOPE]', '  intervals: [1m]', '  since: 2026-02-01', '  until: 2026-04-31', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n');
    let error: unknown;
    try {
      parsePipelineYaml(text, { registry: components, file: 'p.yaml' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PipelineConfigError);
    expect((error as PipelineConfigError).problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '4: source.codes[1]: unknown product code "NOPE": not in the product catalog (codes are case-sensitive)',
      '7: source.until: "2026-04-31" must be an ISO date or date-time that exists (e.g. 2026-01-01, 2026-01-01T09:30:00Z) or a span back from now (e.g. 90d, 12h, 2w)',
    ]);
  });
});
