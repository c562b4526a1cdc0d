import { describe, expect, it } from 'vitest';
import {
  ALL_BEHAVIOURS,
  formatBehaviourSpec,
  isBehaviourFree,
  NO_BEHAVIOURS,
  parseBehaviourSpec,
} from '../../../src/emulator/behaviours/behaviour-spec.js';
import { numberForm, paddedForm, trimmedForm } from '../../../src/emulator/behaviours/number-forms.js';
import { withExtraFields, EXTRA_FIELD_NAMES } from '../../../src/emulator/behaviours/extra-fields.js';

describe('parseBehaviourSpec', () => {
  it('parses names with rates, names alone (default rate), all and overrides', () => {
    expect(parseBehaviourSpec('short-pages=0.5,missing-bars=0.02,descending,overlap,number-forms,extra-fields,halt-duplicates=0.3,omit-codes=0.1')).toEqual({
      shortPages: 0.5,
      missingBars: 0.02,
      descending: 1,
      shuffle: 0,
      overlap: 1,
      numberForms: 1,
      extraFields: 1,
      haltDuplicates: 0.3,
      omitCodes: 0.1,
    });
    expect(parseBehaviourSpec('all')).toEqual(ALL_BEHAVIOURS);
    expect(parseBehaviourSpec('all, short-pages=0, Shuffle=1')).toEqual({ ...ALL_BEHAVIOURS, shortPages: 0, shuffle: 1 });
    expect(parseBehaviourSpec('')).toEqual(NO_BEHAVIOURS);
    expect(isBehaviourFree(parseBehaviourSpec('none'))).toBe(true);
    expect(isBehaviourFree(parseBehaviourSpec('omit-codes=0.01'))).toBe(false);
    expect(parseBehaviourSpec(formatBehaviourSpec(ALL_BEHAVIOURS))).toEqual(ALL_BEHAVIOURS);
  });
  it('names the bad part', () => {
    expect(() => parseBehaviourSpec('descending,sideways')).toThrow(/"sideways".*unknown behaviour.*short-pages/);
    expect(() => parseBehaviourSpec('short-pages=2')).toThrow(/"short-pages=2".*outside 0..1/);
    expect(() => parseBehaviourSpec('omit-codes=lots')).toThrow(/not a number/);
    expect(() => parseBehaviourSpec('overlap,overlap=0.5')).toThrow(/given twice/);
    expect(() => parseBehaviourSpec('missing-bars=0.95')).toThrow(/at most 0.9/);
    expect(() => parseBehaviourSpec('descending,all')).toThrow(/must come first/);
    expect(() => parseBehaviourSpec('all=1')).toThrow(/takes no value/);
  });
});

describe('number forms (R4)', () => {
  const value = (t: string): string => {
    // exact value as a normalised text: no float involved
    const [i, f = ''] = t.split('.');
    const frac = f.replace(/0+$/, '');
    return `${i!.replace(/^0+(?=\d)/, '')}${frac ? `.${frac}` : ''}`;
  };
  it('trims and pads without changing the value', () => {
    expect(trimmedForm('12.50')).toBe('12.5');
    expect(trimmedForm('13.00')).toBe('13');
    expect(trimmedForm('0.00')).toBe('0');
    expect(trimmedForm('100')).toBe('100');
    expect(paddedForm('12.50', 3)).toBe('12.50000');
    expect(paddedForm('7', 1)).toBe('7.0');
    for (const text of ['12.50', '13.00', '0.00', '0', '100', '0.00001871', '123456789012345.123456']) {
      const forms = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const f = numberForm(text, i / 40);
        expect(f).toMatch(/^\d+(\.\d+)?$/); // never an exponent, never a sign
        expect(value(f)).toBe(value(text));
        forms.add(f);
      }
      expect(forms.size).toBeGreaterThanOrEqual(3);
    }
    expect(numberForm('1e5', 0.3)).toBe('1e5');
  });
  it('extra fields never replace a known one', () => {
    const bar = { timestamp: '1', open_price: '2' };
    for (let i = 0; i < 20; i++) {
      const out = withExtraFields(bar, i / 20, (i * 7) % 20 / 20) as Record<string, unknown>;
      expect(out).toMatchObject(bar);
      const extra = Object.keys(out).filter((k) => !(k in bar));
      expect(extra.length).toBeGreaterThanOrEqual(1);
      for (const k of extra) expect(EXTRA_FIELD_NAMES).toContain(k);
    }
  });
});
