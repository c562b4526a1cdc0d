/**
 * An option declared as a number that was given text (`--port abc`): yargs turns it into NaN, so
 * each command's own check would say "got NaN". Said here, for every command, with the text given.
 */
import { UsageError } from './usage-error.js';

/** The text given for `--key` in `argv` (`--key text` or `--key=text`); undefined when not found. */
function givenText(argv: readonly string[], key: string): string | undefined {
  for (let i = argv.length - 1; i >= 0; i--) {
    const arg = argv[i]!;
    if (arg.startsWith(`--${key}=`)) return arg.slice(key.length + 3);
    if (arg === `--${key}`) return argv[i + 1];
  }
  return undefined;
}

export function checkNumberOptions(args: Record<string, unknown>, argv: readonly string[], numbers: readonly string[] = []): true {
  // `--stop-timeout` with no value after it: yargs drops the key altogether (not NaN), so the run
  // would go on with the default, silently. Refuse it like text for a number.
  const command = (args._ as unknown[] | undefined)?.[0];
  const hint = `run "quotelake ${typeof command === 'string' ? command : '<command>'} --help" for what it takes`;
  const end = argv.indexOf('--');
  for (const key of numbers) {
    if (/[A-Z]/.test(key)) continue;
    const at = argv.findIndex((a, i) => a === `--${key}` && (end < 0 || i < end));
    if (at < 0) continue;
    const next = argv[at + 1];
    if (next === undefined || (next.startsWith('-') && Number.isNaN(Number(next)))) {
      throw new UsageError(`--${key} must be a number, got no value`, hint);
    }
  }
  // An empty value (`--stop-timeout "$UNSET"`, `--grace=`): yargs reads it as 0, which each
  // command would then take or refuse as a zero the user never wrote.
  for (const key of numbers) {
    if (/[A-Z]/.test(key)) continue;
    const text = givenText(end < 0 ? argv : argv.slice(0, end), key);
    if (text !== undefined && text.trim() === '') throw new UsageError(`--${key} must be a number, got ${JSON.stringify(text)}`, hint);
  }
  for (const [key, value] of Object.entries(args)) {
    // yargs keeps each dashed option under its camelCase name too: one message, by the dashed name.
    if (typeof value !== 'number' || !Number.isNaN(value) || /[A-Z]/.test(key)) continue;
    const text = givenText(argv, key);
    throw new UsageError(`--${key} must be a number, got ${text === undefined ? 'no value' : JSON.stringify(text)}`, hint);
  }
  return true;
}
