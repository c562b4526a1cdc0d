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
  const unknown = /^Unknown arguments?: ([^,\s]+)/.exec(msg)?.[1];
  // Only a word given as a flag: a stray positional is not a misspelt option.
  if (unknown === undefined || !argv.some((a) => a === `--${unknown}` || a.startsWith(`--${unknown}=`))) return msg;
  const near = didYouMean(unknown, declaredOptions.filter((o) => o.length > 1 && !/[A-Z]/.test(o)));
  return near === undefined ? msg : `${msg}; did you mean --${near}?`;
}
