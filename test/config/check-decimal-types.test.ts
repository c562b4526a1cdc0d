/** Decimal types across stages: a sink narrower than what parse-decimals admits is refused at the sink's decimal. */
import { describe, expect, it } from 'vitest';
import { checkDecimalTypes, decimalTypeFits } from '../../src/config/check-decimal-types.js';
import { components } from '../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import { refusalOf } from '../helpers/pipeline-refusal.js';

function yaml(transform: string[], sink: string[]): string {
  return ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', ...transform, 'sink:', ...sink, ''].join('\n');
}

const messageOf = (text: string): string => refusalOf(text, 'pipelines/x.yaml');

/** Every problem of the file, each as validate prints it. */
function allProblems(text: string): string[] {
  try {
    parsePipelineYaml(text, { registry: components, file: 'pipelines/x.yaml' });
  } catch (e) {
    if (e instanceof PipelineConfigError) return e.describeAll().split('\n');
    throw e;
  }
  return [];
}

describe('decimal types across stages', () => {
  it('refuses parse-decimals at its default 38,18 into a sink at 18,8, at sink.decimal, with both fixes', () => {
    const text = yaml(['  - type: parse-decimals'], ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']);
    expect(messageOf(text)).toBe(
      'pipelines/x.yaml:10:12: sink.decimal: parquet stores DECIMAL(18,8) but transforms[0] parse-decimals admits DECIMAL(38,18) (decimal): ' +
        '18 decimals where the sink keeps 8, so such values could only be rejected. ' +
        'Set sink decimal: { precision: 38, scale: 18 }, or narrow transforms[0].decimal to at most { precision: 18, scale: 8 }',
    );
  });

  it('refuses a sink precision smaller than the integer digits parse-decimals admits', () => {
    const text = yaml(['  - type: parse-decimals', '    decimal: { precision: 20, scale: 8 }'], ['  type: arrow', '  decimal: { precision: 18, scale: 8 }']);
    expect(messageOf(text)).toContain('admits DECIMAL(20,8) (decimal): 12 integer digits where the sink keeps 10');
  });

  it('names a column override that does not fit', () => {
    const text = yaml(
      ['  - type: parse-decimals', '    decimal: { precision: 18, scale: 8 }', '    columns:', '      turnover: { precision: 30, scale: 8 }'],
      ['  type: parquet', '  decimal: { precision: 18, scale: 8 }'],
    );
    expect(messageOf(text)).toContain('admits DECIMAL(30,8) (columns.turnover)');
    expect(messageOf(text)).toContain('Set sink decimal: { precision: 30, scale: 8 }, or narrow transforms[0] columns.turnover to at most { precision: 18, scale: 8 }');
  });

  it('ignores an override of a column the source\'s dataset does not have (price on K-lines), and checks it where it does', () => {
    const transform = ['  - type: parse-decimals', '    decimal: { precision: 18, scale: 8 }', '    columns:', '      price: { precision: 38, scale: 18 }'];
    expect(messageOf(yaml(transform, ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']))).toBe('');
    const trades = ['name: x', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'transforms:', ...transform, 'sink:', '  type: parquet', '  decimal: { precision: 18, scale: 8 }', ''].join('\n');
    expect(messageOf(trades)).toContain('admits DECIMAL(38,18) (columns.price)');
  });

  it('offers no sink type past 38 digits: the sink\'s own type is no fix, narrowing the transform is', () => {
    // 20 decimals of price beside 20 integer digits of the rest need 40 digits.
    const trades = (transform: string[], sink: string[]) =>
      ['name: x', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'transforms:', ...transform, 'sink:', ...sink, ''].join('\n');
    const wide = ['  - type: parse-decimals', '    columns: { price: { precision: 38, scale: 20 } }'];
    expect(messageOf(trades(wide, ['  type: parquet']))).toBe(
      'pipelines/x.yaml:9:3: sink.decimal: parquet stores DECIMAL(38,18) but transforms[0] parse-decimals admits DECIMAL(38,20) (columns.price): ' +
        '20 decimals where the sink keeps 18, so such values could only be rejected. ' +
        'No DECIMAL holds both (20 integer digits and 20 decimals need 40 digits, 38 at most): narrow transforms[0] columns.price to at most { precision: 38, scale: 18 }',
    );
    // Following the old advice (a sink at 38,20) was refused again, with itself as the fix.
    const message = messageOf(trades(wide, ['  type: parquet', '  decimal: { precision: 38, scale: 20 }']));
    expect(message).toContain('admits DECIMAL(38,18) (decimal): 20 integer digits where the sink keeps 18');
    expect(message).not.toContain('Set sink decimal: { precision: 38, scale: 20 }');
    expect(message).toContain('No DECIMAL holds both (20 integer digits and 20 decimals need 40 digits, 38 at most): narrow transforms[0].decimal to at most { precision: 38, scale: 20 }');
    // Under 38 digits the widened sink is still offered, and it holds every admitted type.
    const mixed = ['  - type: parse-decimals', '    decimal: { precision: 18, scale: 2 }', '    columns: { price: { precision: 18, scale: 8 } }'];
    expect(messageOf(trades(mixed, ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']))).toContain('Set sink decimal: { precision: 24, scale: 8 }');
    expect(messageOf(trades(mixed, ['  type: parquet', '  decimal: { precision: 24, scale: 8 }']))).toBe('');
  });

  it('accepts a pair where every admitted value fits the sink', () => {
    expect(messageOf(yaml(['  - type: parse-decimals'], ['  type: parquet']))).toBe('');
    expect(messageOf(yaml(['  - type: parse-decimals', '    decimal: { precision: 18, scale: 8 }'], ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']))).toBe('');
    expect(messageOf(yaml(['  - type: parse-decimals', '    decimal: { precision: 12, scale: 4 }'], ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']))).toBe('');
    // The NDJSON sink writes text: it has no decimal type to fit.
    expect(checkDecimalTypes({ transforms: [{ type: 'parse-decimals', decimal: { precision: 38, scale: 18 } }], sink: { type: 'ndjson' } })).toEqual([]);
  });

  it('says nothing of a type that cannot exist: its stage\'s own schema has named it, and no fix could be built from it', () => {
    expect(checkDecimalTypes({ transforms: [{ type: 'parse-decimals', decimal: { precision: 39, scale: 40 } }], sink: { type: 'parquet', decimal: { precision: 38, scale: 18 } } })).toEqual([]);
    expect(checkDecimalTypes({ transforms: [{ type: 'parse-decimals', decimal: { precision: 18, scale: 8 } }], sink: { type: 'parquet', decimal: { precision: 0, scale: 0 } } })).toEqual([]);
  });

  it('is checked beside a problem of another stage, each said at its place', () => {
    const text = ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [7x]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', '  decimal: { precision: 18, scale: 8 }', ''].join('\n');
    expect(allProblems(text)).toEqual([
      'pipelines/x.yaml:5:15: source.intervals[0]: "7x" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo',
      'pipelines/x.yaml:10:12: sink.decimal: parquet stores DECIMAL(18,8) but transforms[0] parse-decimals admits DECIMAL(38,18) (decimal): ' +
        '18 decimals where the sink keeps 8, so such values could only be rejected. ' +
        'Set sink decimal: { precision: 38, scale: 18 }, or narrow transforms[0].decimal to at most { precision: 18, scale: 8 }',
    ]);
  });

  it('skips a transform that failed its own schema: a misspelt key leaves a default that was not meant', () => {
    // With `decimall` read as unknown, the default 38,18 stands in for the 18,8 the author wrote.
    const text = yaml(['  - type: parse-decimals', '    decimall: { precision: 18, scale: 8 }'], ['  type: parquet', '  decimal: { precision: 18, scale: 8 }']);
    expect(allProblems(text)).toEqual(['pipelines/x.yaml:8:5: transforms[0]: unknown key "decimall"; did you mean "decimal"?']);
  });

  it('fits by integer digits and by scale, not by precision alone', () => {
    expect(decimalTypeFits({ precision: 12, scale: 4 }, { precision: 18, scale: 8 })).toBe(true);
    expect(decimalTypeFits({ precision: 18, scale: 2 }, { precision: 18, scale: 8 })).toBe(false);
    expect(decimalTypeFits({ precision: 10, scale: 10 }, { precision: 18, scale: 8 })).toBe(false);
  });
});
