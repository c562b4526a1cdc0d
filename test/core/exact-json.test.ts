/** JSON with the service's numbers as sent: numbers a double cannot hold kept as text, written back as numbers. */
import { describe, expect, it } from 'vitest';
import { ExactNumber, parseJsonExact, stringifyExact } from '../../src/core/exact-json.js';

describe('parseJsonExact', () => {
  it('gives what JSON.parse gives when every number fits a double (1.10, 1e3 and -0.0 are values a double holds)', () => {
    const text = '{"ret":200,"a":[1.10,1e3,-0.0,0.1,9007199254740991],"s":"t:12345678901234567890123"}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('keeps a number a double cannot hold as its text, and only those', () => {
    const value = parseJsonExact('{"t":12345678901234567890.5,"s":12345678901234567890123,"v":1E400,"u":1e-400,"n":5,"x":"9.99"}') as Record<string, unknown>;
    expect(value.t).toEqual(new ExactNumber('12345678901234567890.5'));
    expect(value.s).toEqual(new ExactNumber('12345678901234567890123'));
    expect(value.v).toEqual(new ExactNumber('1E400'));
    expect(value.u).toEqual(new ExactNumber('1e-400'));
    expect(value.n).toBe(5);
    expect(value.x).toBe('9.99');
    expect(String(value.t)).toBe('12345678901234567890.5');
    expect(Number(value.t)).toBeNaN();
  });

  it('refuses what JSON.parse refuses; a repeated key is taken as JSON.parse takes it', () => {
    expect(() => parseJsonExact('{"a":12345678901234567890123')).toThrow(SyntaxError);
    expect(parseJsonExact('{"a":1,"a":12345678901234567890123}')).toEqual({ a: 12345678901234567890123 });
  });
});

describe('stringifyExact', () => {
  it('writes each kept number back as the number it was, and everything else as JSON.stringify does', () => {
    const text = '{"t":12345678901234567890.5,"list":[1E400,2],"s":"a\\u0000b","n":null}';
    expect(stringifyExact(parseJsonExact(text))).toBe('{"t":12345678901234567890.5,"list":[1E400,2],"s":"a\\u0000b","n":null}');
    expect(stringifyExact({ a: 'x' })).toBe(JSON.stringify({ a: 'x' }));
  });

  it('a string that looks like the mark is left a string (the mark holds a key drawn per process)', () => {
    const forged = { s: '\u00000000000000000000:123' };
    expect(stringifyExact(forged)).toBe(JSON.stringify(forged));
  });
});

describe('raw NDJSON lines', () => {
  it('keep a number the service sent as it sent it (no transform: the wire record as is)', async () => {
    const { rowToJson } = await import('../../src/sinks/ndjson/row-json.js');
    const tick = parseJsonExact('{"code":"BTCUSDT","seq":12345678901234567890123,"turnover":12345678901234567890.5,"price":"1"}') as object;
    expect(rowToJson('trade', { tick, fetchedAtMs: 0 })).toBe('{"tick":{"code":"BTCUSDT","seq":12345678901234567890123,"turnover":12345678901234567890.5,"price":"1"},"fetchedAtMs":0}');
  });
});
