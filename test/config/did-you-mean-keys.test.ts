/** Unknown keys and component types in a pipeline file come with the key or type they resemble, at file:line:col. */
import { describe, expect, it } from 'vitest';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import { components } from '../../src/components.js';

function problems(text: string): string[] {
  try {
    parsePipelineYaml(text, { registry: components, file: 'p.yaml' });
  } catch (e) {
    expect(e).toBeInstanceOf(PipelineConfigError);
    return (e as PipelineConfigError).describeAll().split('\n');
  }
  throw new Error('expected a config error');
}

describe('did you mean, in pipeline files', () => {
  it('names the nearest key of the mapping the unknown key is in, resolved by the component type', () => {
    const text = [
      'name: x', //  1
      'sourc: 1', // 2
      'source:', //  3
      '  type: kline-history', // 4
      '  codes: [BTCUSDT]', // 5
      '  intervals: [1m]', // 6
      '  sinc: 7d', // 7
      'transforms:', // 8
      '  - type: parse-decimals', // 9
      '    decimall: { precision: 38, scale: 18 }', // 10
      'sink:', // 11
      '  type: parquet', // 12
      '  maxRowPerFile: 10', // 13
      'service:', // 14
      '  pln: basic', // 15
      'options:', // 16
      '  onRejct: drop', // 17
      '  zzzzzz: 1', // 18
    ].join('\n');
    expect(problems(text)).toEqual([
      'p.yaml:2:1: unknown key "sourc"; did you mean "source"?',
      'p.yaml:7:3: source: unknown key "sinc"; did you mean "since"?',
      'p.yaml:10:5: transforms[0]: unknown key "decimall"; did you mean "decimal"?',
      'p.yaml:13:3: sink: unknown key "maxRowPerFile"; did you mean "maxRowsPerFile"?',
      'p.yaml:15:3: service: unknown key "pln"; did you mean "plan"?',
      'p.yaml:17:3: options: unknown key "onRejct"; did you mean "onReject"?',
      'p.yaml:18:3: options: unknown key "zzzzzz"',
    ]);
  });

  it('names the nearest source, transform or sink type', () => {
    const text = ['name: x', 'source:', '  type: kline-histroy', 'transforms:', '  - type: parse-decimal', 'sink:', '  type: parqet'].join('\n');
    const [source, transform, sink] = problems(text);
    expect(source).toBe('p.yaml:3:9: source.type: unknown type "kline-histroy"; expected one of kline-history, kline-latest, depth-snapshot, trade-snapshot, trading-halts; did you mean "kline-history"?');
    expect(transform).toBe('p.yaml:5:11: transforms[0].type: unknown type "parse-decimal"; expected one of parse-decimals, normalize-halts; did you mean "parse-decimals"?');
    expect(sink).toBe('p.yaml:7:9: sink.type: unknown type "parqet"; expected one of parquet, arrow, ndjson; did you mean "parquet"?');
  });

  it('names the value an enum, a plan or a time zone resembles; "1M" gets both meanings, not a guess', () => {
    const pipeline = (interval: string) =>
      ['name: x', 'service:', '  plan: profesional', '  quotaTimeZone: Asia/Shangai', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', `  intervals: [${interval}]`, 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet'].join('\n');
    expect(problems(pipeline('1H'))).toEqual([
      'p.yaml:3:9: service.plan: "profesional" is not one of free, basic, premium, professional, all-hk, all-cn, all-us; did you mean "professional"?',
      'p.yaml:4:18: service.quotaTimeZone: "Asia/Shangai" is not an IANA time zone (e.g. UTC, Asia/Shanghai); did you mean "Asia/Shanghai"?',
      'p.yaml:8:15: source.intervals[0]: "1H" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo; did you mean "1h"?',
    ]);
    expect(problems(pipeline('1M'))[2]).toBe('p.yaml:8:15: source.intervals[0]: "1M" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo; "1m" is a minute bar, "1mo" a month bar');
    expect(problems(pipeline('15min'))[2]).toBe('p.yaml:8:15: source.intervals[0]: "15min" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo');
  });
});
