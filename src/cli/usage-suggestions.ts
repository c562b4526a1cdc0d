/**
 * yargs' usage messages, with the word the user most likely meant: "Did you mean run?" (its
 * recommendCommands) names the unknown command too, and "Unknown argument: fromat" for a flag gets
 * the nearest option of the command. A message with nothing near is left as yargs wrote it.
 */
import { didYouMean } from '../core/did-you-mean.js';

export function withSuggestion(msg: string, argv: readonly string[], declaredOptions: readonly string[]): string {
  const recommended = /^Did you mean (\S+)\?$/.exec(msg);
  const command = argv.find((a) => !a.startsWith('-'));
  if (recommended && command !== undefined) return `unknown command "${command}"; did you mean ${recommended[1]}?`;
  const signed = signedValue(msg, argv);
  if (signed !== undefined) return signed;
  const unknown = /^Unknown arguments?: ([^,\s]+)/.exec(msg)?.[1];
  // Only a word given as a flag: a stray positional is not a misspelt option.
  if (unknown === undefined || !argv.some((a) => a === `--${unknown}` || a.startsWith(`--${unknown}=`))) return msg;
  const near = didYouMean(unknown, declaredOptions.filter((o) => o.length > 1 && !/[A-Z]/.test(o)));
  return near === undefined ? msg : `${msg}; did you mean --${near}?`;
}

/**
 * `--since -3d`: a value that starts with a minus is read as short flags (-3, -d), which yargs then
 * calls unknown arguments "3, d". Said as what happened, with the two ways to write it.
 */
function signedValue(msg: string, argv: readonly string[]): string | undefined {
  if (!/^Unknown arguments?: /.test(msg)) return undefined;
  const at = argv.findIndex((a, i) => a.startsWith('--') && !a.includes('=') && /^-\d/.test(argv[i + 1] ?? ''));
  if (at < 0) return undefined;
  const [flag, value] = [argv[at]!, argv[at + 1]!];
  return `${flag} ${value}: a value that starts with "-" is read as flags; a span back from now has no sign (${flag} ${value.slice(1)}), and ${flag}=${value} passes it as it is`;
}
