/**
 * The README's Options table against each command's --help: an option is in the help of exactly
 * the commands its row lists, so the table neither promises an option a command refuses nor hides
 * one it takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

/** Each help page, by the name the table uses for its command. */
const HELP_OF: Readonly<Record<string, readonly string[]>> = {
  run: ['run'], plan: ['plan'], validate: ['validate'], list: ['list'], inspect: ['inspect'], migrate: ['migrate'],
  compact: ['compact'], vacuum: ['vacuum'], repair: ['repair'], quota: ['quota'], enqueue: ['enqueue'], worker: ['worker'],
  queue: ['queue', 'status'], 'state show': ['state', 'show'], 'state reset': ['state', 'reset'], schema: ['schema'],
  serve: ['serve'], init: ['init'], completion: ['completion'],
};

/** Options a command has under the same name, documented in its own section rather than this table. */
const OWN: Readonly<Record<string, readonly string[]>> = { serve: ['--plans-file', '--clock'] };

interface Row {
  flags: string[];
  commands: Set<string>;
}

function optionsTable(): Row[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const start = readme.indexOf('### Options');
  const rows: Row[] = [];
  for (const line of readme.slice(start + 4)) {
    if (!line.startsWith('|')) break;
    // `\|` inside a cell is a choice (`--format parquet\|arrow`), not a column.
    const [option, commands] = line.slice(1).split(/(?<!\\)\|/).map((c) => c.trim());
    const flags = [...option!.matchAll(/`(--?[a-z0-9-]+)/g)].map((m) => m[1]!);
    const named = commands === 'every command' ? Object.keys(HELP_OF) : commands!.split(',').map((c) => c.trim());
    // "state" is both state commands; "queue drop" is the queue's help page.
    const expanded = named.flatMap((c) => (c === 'state' ? ['state show', 'state reset'] : c === 'queue drop' ? ['queue'] : [c]));
    rows.push({ flags, commands: new Set(expanded) });
  }
  return rows;
}

function listsFlag(help: string, flag: string): boolean {
  return new RegExp(`(^|[\\s,])${flag}([\\s,=]|$)`, 'm').test(help);
}

describe('the README Options table', () => {
  it("lists each option for exactly the commands whose help has it", async () => {
    const rows = optionsTable();
    expect(rows.length).toBeGreaterThan(25);
    const names = Object.keys(HELP_OF);
    const helps = await Promise.all(names.map((n) => runCli([...HELP_OF[n]!, '--help'])));
    const mismatches: string[] = [];
    for (const { flags, commands } of rows) {
      for (const flag of flags) {
        names.forEach((name, i) => {
          if (OWN[name]?.includes(flag) === true) return;
          const inHelp = listsFlag(helps[i]!.stdout, flag);
          if (inHelp !== commands.has(name)) mismatches.push(`${flag} ${name}: table ${commands.has(name)}, help ${inHelp}`);
        });
      }
    }
    expect(mismatches).toEqual([]);
  }, 60_000);
});
