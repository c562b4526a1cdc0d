/**
 * An option that takes one value, given twice (`--output a --output b`, often a line of a script
 * appended to another): yargs makes it a list, which every command would then take as a path, a
 * number or a word, and fail on as an internal error. Said here, for every command, naming the
 * values, except a token's.
 */
import { UsageError } from './usage-error.js';

/** Options whose value is never shown, even to say it was given twice. */
const SECRET_OPTIONS = new Set(['token']);

/** Each text given for `--key` before a `--` (`--key text` or `--key=text`), in order. */
function givenTexts(argv: readonly string[], key: string): string[] {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  const texts: string[] = [];
  words.forEach((arg, i) => {
    if (arg.startsWith(`--${key}=`)) texts.push(arg.slice(key.length + 3));
    else if (arg === `--${key}`) texts.push(words[i + 1] ?? '');
  });
  return texts;
}

export function checkRepeatedOptions(
  args: Record<string, unknown>,
  options: { readonly array?: readonly string[]; readonly number?: readonly string[] } | undefined,
  argv: readonly string[] = [],
): true {
  const lists = new Set(options?.array ?? []);
  for (const [key, value] of Object.entries(args)) {
    // yargs keeps each dashed option under its camelCase name too: one message, by the dashed name.
    if (key === '_' || !Array.isArray(value) || lists.has(key) || /[A-Z]/.test(key)) continue;
    const values = SECRET_OPTIONS.has(key) ? '' : ` (${value.map((v) => JSON.stringify(v)).join(', ')})`;
    throw new UsageError(`--${key} was given ${value.length} times${values}: it takes one value`, `give --${key} once`);
  }
  // A number given twice whose second value is 1 is no list to yargs: it adds 1 to the first, as a
  // counter (`--port 8765 --port 1` listened on 8766). Counted in the command line instead.
  for (const key of options?.number ?? []) {
    if (lists.has(key) || /[A-Z]/.test(key)) continue;
    const texts = givenTexts(argv, key);
    if (texts.length < 2) continue;
    const values = texts.map((t) => (Number.isNaN(Number(t)) || t.trim() === '' ? JSON.stringify(t) : String(Number(t)))).join(', ');
    throw new UsageError(`--${key} was given ${texts.length} times (${values}): it takes one value`, `give --${key} once`);
  }
  return true;
}
