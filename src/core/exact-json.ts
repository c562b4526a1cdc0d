/**
 * JSON with the service's numbers as sent. JSON.parse makes every number a double, so a number
 * with more digits than a double holds (a 21-digit turnover, a 23-digit seq sent as a number) or
 * beyond its range (1E400) would reach a rejected record, or a raw NDJSON line, rounded or as null.
 * Such a number is kept as its text (ExactNumber); every other number stays a plain number, as
 * JSON.parse gives it.
 *
 * The common answer costs JSON.parse and one scan for number tokens; only a text holding a number
 * a double cannot hold is parsed again, by lossless-json. Writing back, `stringifyExact` puts each
 * ExactNumber's text in place as a JSON number, through the native JSON.stringify.
 */
import { randomBytes } from 'node:crypto';
import { isSafeNumber, parse as losslessParse } from 'lossless-json';

// What an ExactNumber becomes inside JSON.stringify, before stringifyExact puts its text in place:
// a string no answer can hold by chance (a NUL and a key drawn for this process).
const KEY = randomBytes(8).toString('hex');
const MARK = `\u0000${KEY}:`;
const MARK_IN_JSON = `"\\u0000${KEY}:`;
const MARKED = new RegExp(`"\\\\u0000${KEY}:([-+.0-9eE]+)"`, 'g');

/** A JSON number a double cannot hold exactly, as its text. As a number it is NaN: it never becomes a rounded one by accident. */
export class ExactNumber {
  constructor(readonly text: string) {}

  [Symbol.toPrimitive](hint: string): string | number {
    return hint === 'number' ? Number.NaN : this.text;
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return `${MARK}${this.text}`;
  }
}

// Where a number token can start: after a colon, a comma or a bracket (inside strings too: a false
// alarm only costs the second parse).
const NUMBER_TOKEN = /[:,[]\s*(-?\d[-+.0-9eE]*)/g;

function holdsUnsafeNumber(text: string): boolean {
  for (const match of text.matchAll(NUMBER_TOKEN)) {
    try {
      if (!isSafeNumber(match[1]!)) return true;
    } catch {
      // Not a number after all (text inside a string such as "t:1-2"): nothing to keep.
    }
  }
  return false;
}

const exactNumber = (text: string): number | ExactNumber => (isSafeNumber(text) ? Number(text) : new ExactNumber(text));

/** JSON.parse, with numbers a double cannot hold kept as ExactNumber. Throws as JSON.parse does. */
export function parseJsonExact(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (!holdsUnsafeNumber(text)) return value;
  try {
    return losslessParse(text, null, exactNumber);
  } catch {
    // lossless-json refuses what JSON.parse takes (a repeated key): the plain parse stands.
    return value;
  }
}

/** JSON.stringify (with the replacer, if any), with every ExactNumber written as the number text it holds. */
export function stringifyExact(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  const text = JSON.stringify(value, replacer) as string | undefined;
  if (text === undefined) return String(value);
  return text.includes(MARK_IN_JSON) ? text.replace(MARKED, '$1') : text;
}
