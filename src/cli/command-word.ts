/**
 * Where the command word is on a command line, read as the parser (yargs) reads it before it knows
 * the command: an option before the command takes the next word as its value (`--log-format json
 * run`), unless it is one of the few options known there without a value (help, version, colour),
 * a `--no-` negation, or gives its value after `=`. Read from argv itself, for what must be known
 * before (or without) parsing; no imports, as early-stop.ts loads it first of all.
 */

/** Options the parser knows before the command that take no value. */
const VALUELESS_BEFORE_COMMAND: ReadonlySet<string> = new Set(['--help', '-h', '--version', '-V', '--color']);

/** A word the parser takes as an option's value: not an option itself, unless a negative number. */
function isValue(word: string | undefined): boolean {
  return word !== undefined && (!word.startsWith('-') || /^-(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(word));
}

/** The index of the command word in `argv` (without node and script), or -1 when there is none. */
export function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!word.startsWith('-') || word === '-') return i;
    if (word.includes('=') || word.startsWith('--no-') || VALUELESS_BEFORE_COMMAND.has(word)) continue;
    // `-abc`: the last letter takes the value; `-n5` holds its own.
    if (!word.startsWith('--') && !/^-[A-Za-z]+$/.test(word)) continue;
    if (!word.startsWith('--') && VALUELESS_BEFORE_COMMAND.has(`-${word.slice(-1)}`)) continue;
    if (isValue(argv[i + 1])) i++;
  }
  return -1;
}

/** The command word (`run`), or undefined when the line names none. */
export function commandWord(argv: readonly string[]): string | undefined {
  const at = commandIndex(argv);
  return at < 0 ? undefined : argv[at];
}
