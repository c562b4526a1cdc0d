/**
 * What `quotelake --get-yargs-completions <words>` answers beyond yargs' own words (commands,
 * options, values of options with choices): pipeline names where a command takes a pipeline, plan
 * names after --plan (custom plans make it free text, so it has no yargs choices), and nothing after
 * an option that takes a path or free text, so the shell falls back to file names.
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

/** A yargs completion function (the four-argument form: yargs' words first, then ours). */
export function wordCompleter(cli: Argv<object>, words: readonly string[], cwd: string = process.cwd()) {
  return (current: string, argv: { _: (string | number)[] }, fallback: Fallback, done: Done): void => {
    fallback((_err, defaults = []) => {
      const valueOf = optionAwaitingValue(words.at(-2), cli);
      if (valueOf !== undefined) {
        if (valueOf === 'plan') return done(PLAN_NAMES.filter((p) => p.startsWith(current)));
        if ((valueOf === 'source' || valueOf === 'sink') && argv._.map(String).includes('init')) {
          return done((valueOf === 'source' ? INIT_SOURCE_TYPES : INIT_SINK_TYPES).filter((t) => t.startsWith(current)));
        }
        const choices = (cli as unknown as Declared).getOptions().choices[valueOf];
        return done(choices !== undefined ? defaults : []);
      }
      if (current.startsWith('-') || !namesPipelines(argv._.map(String))) return done(defaults);
      done([...defaults, ...pipelineNamesFor(current, cwd)]);
    });
  };
}
