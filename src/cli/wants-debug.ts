import { commandWord } from './command-word.js';

/** --log-level debug asked for, read from argv itself: the answer is needed before (or without) parsing. */
export function wantsDebug(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--log-level=debug' || (a === '--log-level' && argv[i + 1] === 'debug'));
}

/** The commands that take --log-level (a test holds this list to their --help). */
export const LOG_LEVEL_COMMANDS: readonly string[] = ['run', 'worker', 'compact', 'repair', 'migrate'];

/** Whether the command on this line takes --log-level, and so can be asked for a stack. */
export function takesLogLevel(argv: readonly string[]): boolean {
  const command = commandWord(argv);
  return command !== undefined && LOG_LEVEL_COMMANDS.includes(command);
}

/**
 * Whether an error that ends the command is followed by its stack: asked for with --log-level
 * debug by a command that takes it, or a defect (QL_INTERNAL) of a command that has no --log-level
 * to ask with, since a report needs the stack. `serve … --log-level debug` asks for nothing: the
 * option is refused as an unknown argument, and that usage error is shown without a stack.
 */
export function showsStack(argv: readonly string[], code: string): boolean {
  return takesLogLevel(argv) ? wantsDebug(argv) : code === 'QL_INTERNAL';
}
