/**
 * yargs' usage messages, with the word the user most likely meant: "Did you mean run?" (its
 * recommendCommands) names the unknown command too, and "Unknown argument: fromat" for a flag gets
 * the nearest option of the command. A message with nothing near is left as yargs wrote it.
 */
import { didYouMean } from '../core/did-you-mean.js';
import { commandIndex, commandWord } from './command-word.js';

export function withSuggestion(given: string, argv: readonly string[], declaredOptions: readonly string[]): string {
  const msg = withoutCamelTwins(given, argv);
  const recommended = /^Did you mean (\S+)\?$/.exec(msg);
  const command = commandWord(argv);
  // yargs says what is missing before what is unknown: `run --hlep` is a typo, not a missing pipeline.
  const unknownFlag = /^Not enough non-option arguments|^Name a (state )?command/.test(msg) ? undeclaredFlag(argv, declaredOptions) : undefined;
  if (unknownFlag !== undefined) return withSuggestion(`Unknown argument: ${unknownFlag}`, argv, declaredOptions);
  const missing = missingArgument(msg, command);
  if (missing !== undefined) return missing;
  const valueless = choiceWithoutValue(msg);
  if (valueless !== undefined) return valueless;
  if (/^Invalid values:/.test(msg)) return withNearestChoice(msg);
  if (recommended && command !== undefined) {
    // `state sho`: the misspelt word is the subcommand, not the first word (a command that exists).
    const meant = recommended[1]!;
    const typed = argv.find((a) => !a.startsWith('-') && a !== meant && didYouMean(a, [meant]) === meant) ?? command;
    return `unknown command "${typed}"; did you mean ${meant}?`;
  }
  const unknown = /^Unknown arguments?: ([^,\s]+)/.exec(msg)?.[1];
  // Only a word given as a flag: a stray positional is not a misspelt option.
  if (unknown === undefined || !argv.some((a) => a === `--${unknown}` || a.startsWith(`--${unknown}=`))) return msg;
  const near = didYouMean(unknown, declaredOptions.filter((o) => o.length > 1 && !/[A-Z]/.test(o)));
  return near === undefined ? msg : `${msg}; did you mean --${near}?`;
}

/**
 * The first flag on the line (before `--`) that the command does not declare, as yargs names it
 * (`--hlep` → hlep, `--no-stat` → no-stat, `-v` → v); undefined when every one is declared. A word
 * after a flag may be its value, so only words that look like flags count (not `-1`).
 */
function undeclaredFlag(argv: readonly string[], declaredOptions: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const declared = new Set(declaredOptions);
  for (const word of end < 0 ? argv : argv.slice(0, end)) {
    const long = /^--([A-Za-z][^=]*)/.exec(word)?.[1];
    if (long !== undefined) {
      if (!declared.has(long) && !(long.startsWith('no-') && declared.has(long.slice(3)))) return long;
      continue;
    }
    const short = /^-([A-Za-z]+)$/.exec(word)?.[1];
    const letter = short === undefined ? undefined : [...short].find((c) => !declared.has(c));
    if (letter !== undefined) return letter;
  }
  return undefined;
}

/**
 * yargs names an unknown dashed flag twice, as typed and camel-cased ("Unknown arguments: base-url,
 * baseUrl" for one `--base-url`), and `--no-state` as "state": one flag is one unknown argument, named as
 * it was typed.
 */
function withoutCamelTwins(msg: string, argv: readonly string[]): string {
  const m = /^Unknown arguments?: (.+)$/s.exec(msg);
  if (m === null) return msg;
  const names = m[1]!.split(', ');
  const camel = (n: string) => n.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const typed = (n: string) => argv.some((a) => a === `--${n}` || a.startsWith(`--${n}=`));
  const kept = names.filter((n) => typed(n) || !names.some((other) => other !== n && other.includes('-') && camel(other) === n));
  // `--no-state` where no --state exists: yargs names it "state", a word the user did not type.
  const asTyped = kept.map((n) => (!typed(n) && typed(`no-${n}`) ? `no-${n}` : n));
  return `Unknown argument${asTyped.length > 1 ? 's' : ''}: ${asTyped.join(', ')}`;
}

/**
 * `--since -3d`, `--retention -1h`: a value that starts with a minus is read as short flags (-3, -d;
 * -1, -h), which yargs then calls unknown arguments "3, d", or takes for --help and exits 0 having
 * done nothing. (A plain negative number is read as a value, and checked as one.) Found before yargs parses, and said as what happened, with the two ways to write it.
 */
export function signedValueProblem(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  // A plain negative number (`--runs -1`) yargs reads as the option's value: its own check says what is wrong with it.
  const at = words.findIndex((a, i) => a.startsWith('--') && a.length > 2 && !a.includes('=') && /^-\d/.test(words[i + 1] ?? '') && !/^-\d+(\.\d+)?$/.test(words[i + 1]!));
  if (at < 0) return undefined;
  const [flag, value] = [words[at]!, words[at + 1]!];
  return `${flag} ${value}: a value that starts with "-" is read as flags; a span or a duration has no sign (${flag} ${value.slice(1)}), and ${flag}=${value} passes it as it is`;
}

/** What each command's required argument is, said as what to type (yargs: "Not enough non-option arguments: got 0, need at least 1"). */
const MISSING: Readonly<Record<string, string>> = {
  run: 'name a pipeline to run: quotelake run <pipeline...> ("quotelake list" shows those you can name; a .yaml or .ts path works too)',
  plan: 'name a pipeline to plan: quotelake plan <pipeline...> ("quotelake list" shows those you can name)',
  validate: 'name a pipeline file to check: quotelake validate <pipeline...>',
  enqueue: 'name a pipeline to queue: quotelake enqueue <pipeline> ("quotelake list" shows those you can name)',
  completion: 'name a shell: quotelake completion bash, zsh or fish',
  queue: 'name what to do: quotelake queue status, schedules, unschedule <name>, or drop <pipeline>',
};

function missingArgument(msg: string, command: string | undefined): string | undefined {
  if (!/^Not enough non-option arguments/.test(msg) || command === undefined) return undefined;
  return MISSING[command];
}

/** `--format` with nothing after it: yargs says "Invalid values: Argument: format, Given: true, Choices: …". */
function choiceWithoutValue(msg: string): string | undefined {
  const m = /^Invalid values:\s*Argument: (\S+), Given: true, Choices: (.+)$/s.exec(msg.trim());
  if (m === null) return undefined;
  const choices = m[2]!.split(/,\s*/).map((c) => c.replace(/^"|"$/g, ''));
  const listed = choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : choices[0];
  return `--${m[1]} needs a value: ${listed}`;
}

/**
 * `--format parqet`: yargs lists the choices ("Argument: format, Given: \"parqet\", Choices: …"); each
 * such line gets the nearest choice, as a misspelt option or pipeline name does.
 */
function withNearestChoice(msg: string): string {
  return msg.replace(/^(\s*Argument: \S+, Given: "(.*)", Choices: (.+))$/gm, (line: string, _all: string, given: string, list: string) => {
    const choices = list.split(/,\s*/).map((c) => c.replace(/^"|"$/g, ''));
    const near = didYouMean(given, choices);
    return near === undefined ? line : `${line}; did you mean "${near}"?`;
  });
}

/**
 * The hint of a usage error: the help of the command it was about, when one was named, and of its
 * subcommand (`state show`), whose options the command's own help does not list.
 */
export function usageHint(argv: readonly string[], commands: readonly string[], subcommands: Readonly<Record<string, readonly string[]>> = {}): string {
  const command = commandWords(argv, commands, subcommands);
  if (command === undefined) return 'run "quotelake --help" (or "quotelake <command> --help") for usage';
  return `run "quotelake ${command} --help" for usage`;
}

/** The command named on the line with its subcommand (`run`, `state show`), or undefined when none is. */
export function commandWords(argv: readonly string[], commands: readonly string[], subcommands: Readonly<Record<string, readonly string[]>> = {}): string | undefined {
  // As the parser finds it (`--log-format json run`); else the first word, for a hint to a line the
  // parser could not read (`--quiet run`: the flag took `run` for its value).
  const parsed = commandIndex(argv);
  const at = parsed >= 0 && commands.includes(argv[parsed]!) ? parsed : argv.findIndex((a) => !a.startsWith('-'));
  const command = argv[at];
  if (command === undefined || !commands.includes(command)) return undefined;
  const sub = argv.slice(at + 1).find((a) => subcommands[command]?.includes(a));
  return sub === undefined ? command : `${command} ${sub}`;
}
