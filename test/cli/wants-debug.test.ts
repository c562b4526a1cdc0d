import yargs, { type Argv } from 'yargs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { bugHint } from '../../src/cli/describe-error.js';
import { LOG_LEVEL_COMMANDS, showsStack, takesLogLevel } from '../../src/cli/wants-debug.js';

/** The options a command declares, read from its own builder. */
function declared(builder: unknown): string[] {
  const y = yargs([]);
  const built = typeof builder === 'function' ? (builder as (y: Argv) => Argv)(y) ?? y : y;
  return Object.keys((built as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
}

describe('which commands can be asked for a stack', () => {
  it('LOG_LEVEL_COMMANDS are exactly the commands that declare --log-level', () => {
    const withLogLevel = COMMANDS.filter((c) => declared(c.builder).includes('log-level')).map((c) => String(c.command).split(' ')[0]);
    expect([...withLogLevel].sort()).toEqual([...LOG_LEVEL_COMMANDS].sort());
  });

  it('a defect of a command without --log-level prints its stack unasked, and its hint says so', () => {
    const validate = ['validate', 'p.yaml'];
    expect(takesLogLevel(validate)).toBe(false);
    expect(showsStack(validate, 'QL_INTERNAL')).toBe(true);
    expect(showsStack(validate, 'QL_CONFIG')).toBe(false);
    expect(bugHint(validate)).toMatch(/the command \(quotelake validate p\.yaml\) and the stack printed below$/);
  });

  it('a command with --log-level keeps the stack for --log-level debug, and its hint names the option', () => {
    const run = ['run', 'kline-backfill', '--token', 'secret-token-1'];
    expect(takesLogLevel(run)).toBe(true);
    expect(showsStack(run, 'QL_INTERNAL')).toBe(false);
    expect(showsStack([...run, '--log-level', 'debug'], 'QL_NETWORK_UNREACHABLE')).toBe(true);
    expect(bugHint(run)).toMatch(/and the stack that the same command prints with --log-level debug$/);
    expect(bugHint(run)).not.toContain('secret-token-1');
  });
});
