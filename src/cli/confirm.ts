/**
 * Asking before state is thrown away (`state reset`, `run --full-refresh`): on a terminal the user
 * answers y/N; a script has no one to ask, so it must say `--yes`, and without it the command stops
 * as a usage error before anything changes.
 */
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { UsageError } from './usage-error.js';

export interface ConfirmOptions {
  /** `--yes` was given. */
  readonly yes: boolean;
  /** The command as the user would retype it with --yes (for the message when there is no terminal). */
  readonly command: string;
  readonly input?: Readable & { isTTY?: boolean };
  readonly output?: Writable;
}

/** true when confirmed; throws a UsageError naming --yes when there is no terminal to ask on. */
export async function confirm(question: string, options: ConfirmOptions): Promise<boolean> {
  if (options.yes) return true;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stderr;
  if (!input.isTTY) {
    throw new UsageError(`"${options.command}" needs a confirmation, but stdin is not a terminal to ask on`, `add --yes to confirm it in a script: ${options.command} --yes`);
  }
  const rl = createInterface({ input, output, terminal: false });
  // Ctrl-D (end of input) leaves readline's question unanswered for ever: it is a no, as an empty answer is.
  // The line break the user did not type keeps the next message off the question's line.
  let onEnd = (): void => undefined;
  const ended = new Promise<string>((resolve) => {
    onEnd = () => {
      output.write('\n');
      resolve('');
    };
    rl.once('close', onEnd);
  });
  try {
    const answer = await Promise.race([rl.question(`${question} [y/N] `), ended]);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.off('close', onEnd);
    rl.close();
  }
}
