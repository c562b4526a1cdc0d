/**
 * An option that takes one value, given twice (`--output a --output b`, often a line of a script
 * appended to another): yargs makes it a list, which every command would then take as a path, a
 * number or a word, and fail on as an internal error. Said here, for every command, naming the
 * values, except a token's.
 */
import { UsageError } from './usage-error.js';

/** Options whose value is never shown, even to say it was given twice. */
const SECRET_OPTIONS = new Set(['token']);

export function checkRepeatedOptions(args: Record<string, unknown>, options: { readonly array?: readonly string[] } | undefined): true {
  const lists = new Set(options?.array ?? []);
  for (const [key, value] of Object.entries(args)) {
    // yargs keeps each dashed option under its camelCase name too: one message, by the dashed name.
    if (key === '_' || !Array.isArray(value) || lists.has(key) || /[A-Z]/.test(key)) continue;
    const values = SECRET_OPTIONS.has(key) ? '' : ` (${value.map((v) => JSON.stringify(v)).join(', ')})`;
    throw new UsageError(`--${key} was given ${value.length} times${values}: it takes one value`, `give --${key} once`);
  }
  return true;
}
