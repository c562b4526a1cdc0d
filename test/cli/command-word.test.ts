/**
 * The command word as the parser finds it, read from argv alone: held to yargs' own parser with the
 * options known before the command (help, version, colour), over lines with options before it.
 */
import { describe, expect, it } from 'vitest';
import { Parser } from 'yargs/helpers';
import { commandIndex, commandWord } from '../../src/cli/command-word.js';

/** The command yargs finds: the first positional word once the options known before it are read. */
function parsersCommand(argv: string[]): string | undefined {
  const parsed = Parser(argv, { boolean: ['help', 'version', 'color'], alias: { help: ['h'], version: ['V'] }, configuration: { 'populate--': false } });
  const first = parsed._[0];
  return first === undefined ? undefined : String(first);
}

const LINES: string[][] = [
  ['run', 'demo'],
  ['--log-format', 'json', 'run', 'pipelines/demo.yaml'],
  ['--log-format=json', 'run', 'demo'],
  ['--output', 'out', '--log-format', 'json', 'compact'],
  ['--no-color', 'run', 'demo'],
  ['--color', 'run', 'demo'],
  ['-V', 'run'],
  ['-h', 'run'],
  ['--help', 'worker'],
  // A flag the parser does not know before the command takes the next word: here `run`.
  ['--quiet', 'run', 'demo'],
  ['-q', 'run', 'demo'],
  ['-qo', 'out', 'run', 'demo'],
  ['--since', '-3', 'run', 'demo'],
  ['--quiet', '--log-format', 'json', 'run', 'demo'],
  ['-n5', 'run'],
  ['--', 'run', 'demo'],
  ['--log-format'],
  ['--log-format', 'json'],
  [],
];

describe('commandWord', () => {
  it.each(LINES.map((l) => [l.join(' '), l] as const))('%s: the word the parser takes as the command', (_, line) => {
    expect(commandWord(line)).toBe(parsersCommand([...line]));
  });

  it('says where the command is, after options before it and their values', () => {
    expect(commandIndex(['--log-format', 'json', 'run', 'demo'])).toBe(2);
    expect(commandIndex(['--log-format=json', '--no-color', 'run'])).toBe(2);
    expect(commandIndex(['run', '--log-format', 'json'])).toBe(0);
    expect(commandIndex(['--log-format', 'json'])).toBe(-1);
  });
});
