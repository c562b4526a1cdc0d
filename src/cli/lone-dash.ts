/**
 * A lone `-` on the command line: many tools read standard input for it, quotelake never does, and
 * the parser would turn it into an empty value, so `quotelake validate -` validated no pipeline and
 * said nothing, `run -` ran none and exited 0, and `inspect -` inspected the default output.
 * `--output=-` is the same word glued to its option: the parser took it for a folder named `-`.
 */
import { UsageError } from './usage-error.js';

/** Options whose value is a folder: a `-` there means "stdout" to the person who typed it. */
const FOLDER_OPTIONS = new Set(['--output', '--state-dir']);

export function checkLoneDash(argv: readonly string[]): void {
  // A shell completing a word that is only a dash yet.
  if (argv.includes('--get-yargs-completions')) return;
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  const at = words.findIndex((w) => w === '-' || /^--[^=]+=-$/.test(w));
  if (at < 0) return;
  const option = words[at] === '-' ? words[at - 1] : words[at]!.slice(0, -2);
  if (option !== undefined && FOLDER_OPTIONS.has(option)) {
    throw new UsageError(
      `${option} -: "-" is no folder, and quotelake writes no lake to standard output`,
      `for NDJSON on stdout add --format ndjson (or give the pipeline an ndjson sink with path: stdout); ${option} names the folder that keeps the run's state and files`,
    );
  }
  throw new UsageError(
    '"-" is not a pipeline, file or folder: quotelake reads nothing from standard input',
    'give a pipeline file\'s path or a shipped pipeline\'s name ("quotelake list" shows them); save piped YAML to a file first',
  );
}
