/**
 * A lone `-` on the command line: many tools read standard input for it, quotelake never does, and
 * the parser would turn it into an empty value, so `quotelake validate -` validated no pipeline and
 * said nothing, `run -` ran none and exited 0, and `inspect -` inspected the default output.
 */
import { UsageError } from './usage-error.js';

export function checkLoneDash(argv: readonly string[]): void {
  // A shell completing a word that is only a dash yet.
  if (argv.includes('--get-yargs-completions')) return;
  const end = argv.indexOf('--');
  if (!(end < 0 ? argv : argv.slice(0, end)).includes('-')) return;
  throw new UsageError(
    '"-" is not a pipeline, file or folder: quotelake reads nothing from standard input',
    'give a pipeline file\'s path or a shipped pipeline\'s name ("quotelake list" shows them); save piped YAML to a file first',
  );
}
