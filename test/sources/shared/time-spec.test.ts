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
