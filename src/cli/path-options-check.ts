/**
 * `--output` and `--state-dir` as given on the command line, checked before anything runs, for
 * every command that takes them:
 * - empty (`--output "$LAKE"` with LAKE unset): it would reach the file system as a path
 *   (`scandir ''`) and end as an internal error;
 * - either written as a URL that is not `s3://` (`gs://b/x`, `S3://b/x`): it would be taken as a
 *   local folder named `gs:`;
 * - either with a control character (a line break pasted with it), or an unexpanded `~` or `$VAR`
 *   (`--output=~/lake`): the rules of the pipeline file's `outputDir` and `stateDir`.
 * `--plans-file` and `--tokens-file` are checked for empty only: an empty plans file was read as the
 * file '' (ENOENT), and an empty tokens file fell back in silence to QUOTELAKE_TOKENS or one token.
 */
import { controlCharacterProblem } from '../core/control-characters.js';
import { unexpandedPathProblem } from '../core/unexpanded-path.js';
import { foreignUrlProblem } from '../core/s3-url.js';
import { UsageError } from './usage-error.js';

/** Each option, how its message names it, and what an empty one is told. */
const PATH_OPTIONS = [
  // `inspect` takes the output as an argument, the other commands as --output.
  { key: 'output', name: 'the output', empty: 'the output (--output, or the argument of inspect) is empty: name a folder or an s3://bucket/prefix' },
  { key: 'state-dir', name: 'the state dir', empty: '--state-dir is empty: name a folder' },
] as const;

/** File options that are only checked for being empty, and what an empty one is told. */
const FILE_OPTIONS = [
  { key: 'plans-file', empty: '--plans-file is empty: name a plans file (YAML or JSON)', hint: 'leave it out for the built-in plans only (or set QUOTELAKE_PLANS_FILE)' },
  { key: 'tokens-file', empty: '--tokens-file is empty: name the secrets file of the token pool', hint: 'leave it out for QUOTELAKE_TOKENS_FILE, QUOTELAKE_TOKENS or a single token' },
] as const;

export function checkPathOptions(args: Record<string, unknown>): true {
  for (const { key, name, empty } of PATH_OPTIONS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    if (value.trim() === '') throw new UsageError(empty, 'leave it out for its default');
    const control = controlCharacterProblem(value);
    if (control !== undefined) throw new UsageError(`${name} ${JSON.stringify(value)} ${control}`, 'give the folder without it');
    // `--output=~/lake` reaches us unexpanded: a shell expands `~` only at the start of a word.
    const unexpanded = unexpandedPathProblem(value);
    if (unexpanded !== undefined) {
      const hint = value.startsWith('~')
        ? `give it as a word of its own (--${key} ~/lake, not --${key}=~/lake), where the shell expands ~, or its whole path`
        : 'give its whole path, or let the shell expand the variable (in double quotes, not single)';
      throw new UsageError(`${name} ${JSON.stringify(value)} ${unexpanded}`, hint);
    }
    const foreign = foreignUrlProblem(value);
    if (foreign !== undefined) throw new UsageError(`${name} ${JSON.stringify(value)} ${foreign}`, 'give a folder, or s3://bucket/prefix for an object store');
  }
  for (const { key, empty, hint } of FILE_OPTIONS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() === '') throw new UsageError(empty, hint);
  }
  return true;
}
