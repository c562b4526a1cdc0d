/**
 * What `quotelake --get-yargs-completions <words>` answers beyond yargs' own words (commands,
 * options, values of options with choices): pipeline names where a command takes a pipeline, plan
 * names after --plan (custom plans make it free text, so it has no yargs choices), and nothing after
 * an option that takes a path or free text, so the shell falls back to file names. A value typed in
 * the option's own word (`--format=p`) gets the same values, each as `--format=parquet`.
 */
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { PLAN_NAMES } from '../core/plan-names.js';
import { INIT_SINK_TYPES, INIT_SOURCE_TYPES } from './commands/init.js';
import { pipelineNames, SHIPPED_PIPELINES_DIR } from './pipeline-ref.js';

/** Commands whose positionals name pipelines (`state show|reset [pipeline]` included). */
const TAKES_PIPELINE = new Set(['run', 'plan', 'validate', 'state']);

/** Whether the next word may be a pipeline: after run, plan or validate, and after `state show|reset`, not `state` alone. */
function namesPipelines(words: readonly string[]): boolean {
  if (!words.some((w) => TAKES_PIPELINE.has(w))) return false;
  return !words.includes('state') || words.includes('show') || words.includes('reset');
}

/** What yargs 18 has at run time beyond @types/yargs 17: the options declared so far. */
interface Declared {
  getOptions(): { key: Record<string, unknown>; boolean: string[]; choices: Record<string, unknown[]> };
  getAliases(): Record<string, string[]>;
}

type Done = (completions: string[]) => void;
type Fallback = (onCompleted?: (err: Error | null, completions: string[] | undefined) => void) => void;

/** Pipeline names `quotelake run <name>` resolves from `cwd`, starting with `prefix`. */
export function pipelineNamesFor(prefix: string, cwd: string, shippedDir: string = SHIPPED_PIPELINES_DIR): string[] {
  return [...new Set([...pipelineNames(join(cwd, 'pipelines')), ...pipelineNames(shippedDir)])].filter((n) => n.startsWith(prefix));
}

/** The option key a word sets when the next word is its value (`--output`, `-o`), else undefined. */
function optionAwaitingValue(word: string | undefined, cli: Argv<object>): string | undefined {
  if (word === undefined || !word.startsWith('-') || word.includes('=') || word === '--') return undefined;
  const key = word.replace(/^-+/, '');
  const options = (cli as unknown as Declared).getOptions();
  const aliases = (cli as unknown as Declared).getAliases();
  const canonical = Object.keys(aliases).find((k) => k === key || aliases[k]?.includes(key)) ?? key;
  // A boolean flag, its --no- form, or an option this command does not declare takes no value.
  if (!Object.hasOwn(options.key, canonical) || options.boolean.includes(canonical) || key.startsWith('no-')) return undefined;
  return canonical;
}

/** The values an option takes that start with `prefix`; [] for a path or free text (the shell offers file names). */
function optionValues(key: string, prefix: string, cli: Argv<object>, commands: readonly string[]): string[] {
  if (key === 'plan') return PLAN_NAMES.filter((p) => p.startsWith(prefix));
  if ((key === 'source' || key === 'sink') && commands.includes('init')) {
    return (key === 'source' ? INIT_SOURCE_TYPES : INIT_SINK_TYPES).filter((t) => t.startsWith(prefix));
  }
  const choices = (cli as unknown as Declared).getOptions().choices[key];
  return (choices ?? []).map(String).filter((c) => c.startsWith(prefix));
}

/**
 * yargs offers a one-letter alias with two dashes (`--q`, `--y`; zsh's `--q:description`): a
 * word no one types, beside the `--quiet` it stands for, and `-q` is still accepted as typed.
 */
function isLongFormOfShortAlias(word: string): boolean {
  return /^--[^-=:](:|$)/.test(word);
}

/** A yargs completion function (the four-argument form: yargs' words first, then ours). */
export function wordCompleter(cli: Argv<object>, words: readonly string[], cwd: string = process.cwd()) {
  return (current: string, argv: { _: (string | number)[] }, fallback: Fallback, done: Done): void => {
    fallback((_err, yargsWords = []) => {
      const defaults = yargsWords.filter((w) => !isLongFormOfShortAlias(w));
      const commands = argv._.map(String);
      // "--format=p": the value is in the same word, so each answer carries the option before it.
      const inline = /^(-{1,2}[^=]+)=(.*)$/s.exec(current);
      const inlineOf = inline ? optionAwaitingValue(inline[1], cli) : undefined;
      if (inline && inlineOf !== undefined) return done(optionValues(inlineOf, inline[2]!, cli, commands).map((v) => `${inline[1]}=${v}`));
      const valueOf = optionAwaitingValue(words.at(-2), cli);
      if (valueOf !== undefined) {
        const choices = (cli as unknown as Declared).getOptions().choices[valueOf];
        return done(choices !== undefined ? defaults : optionValues(valueOf, current, cli, commands));
      }
      if (current.startsWith('-') || !namesPipelines(argv._.map(String))) return done(defaults);
      done([...defaults, ...pipelineNamesFor(current, cwd)]);
    });
  };
}
