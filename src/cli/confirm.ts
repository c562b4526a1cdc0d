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
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
