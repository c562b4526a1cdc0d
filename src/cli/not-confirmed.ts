/**
 * A question answered no (`state reset`, `run --full-refresh`, `queue drop`): one line, event
 * `not-confirmed`, and exit 1 with nothing changed. With --json the command's document still comes,
 * as for any other failure, so a script that reads one on stdout always gets one.
 */
import { packageVersion } from '../lake/package-version.js';
import { EXIT_FAILURE } from './exit-codes.js';
import { emitJson, type Terminal } from './terminal.js';

export const NOT_CONFIRMED_CODE = 'QL_NOT_CONFIRMED';

export interface NotConfirmed {
  /** The command's name in its document (`state reset`, `run`, `queue drop`). */
  readonly command: string;
  /** What was left undone: "reset", "run", "dropped". */
  readonly undone: string;
  readonly json: boolean;
  /** The command's own fields for "nothing done" (`reset: []`, `runs: []` ...). */
  readonly nothing: Record<string, unknown>;
  /** The document goes to stderr when stdout carries NDJSON data. */
  readonly toStderr?: boolean;
}

export function sayNotConfirmed(terminal: Terminal, what: NotConfirmed): number {
  const message = `not confirmed; nothing was ${what.undone}`;
  terminal.notice(`quotelake: ${message}`, { level: 'error', event: 'not-confirmed', code: NOT_CONFIRMED_CODE });
  if (what.json) {
    const error = { code: NOT_CONFIRMED_CODE, message, hint: 'answer y to go ahead, or add --yes' };
    emitJson(terminal, { quotelake: packageVersion(), command: what.command, exitCode: EXIT_FAILURE, ...what.nothing, error }, what.toStderr ?? false);
  }
  return EXIT_FAILURE;
}
