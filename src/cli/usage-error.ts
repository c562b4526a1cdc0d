/** A wrong command line: the CLI prints the message (and the hint) and exits 2. */
export class UsageError extends Error {
  /** What to do about it, printed on its own line. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
