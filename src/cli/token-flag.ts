/**
 * `--token` as given: trimmed like QUOTELAKE_TOKEN (a token pasted with a blank or line break around
 * it would only earn a `ret` 401), and refused when nothing is left (`--token "$TOKEN"` with TOKEN
 * unset), which would otherwise reach the client as an empty token. A repeated flag (an array) is
 * left to the repeated-options check.
 */
import { UsageError } from './usage-error.js';

/** The option's coerce: the value trimmed (yargs would wrap an error thrown here as its own). */
export function trimTokenFlag(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** The option's check, after coerce. */
export function checkTokenFlag(args: Record<string, unknown>): true {
  if (args.token === '') {
    throw new UsageError('--token is empty', 'give the token of your plan (QUOTELAKE_TOKEN is preferred: flags show in `ps`), or leave both it and the base URL out for the built-in emulator');
  }
  return true;
}

/** The --token value of argv (`--token V` or `--token=V`), trimmed as the option is, before yargs parses it; for masking. */
export function flaggedToken(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--token');
  const inline = argv.find((a) => a.startsWith('--token='));
  return at >= 0 ? argv[at + 1]?.trim() : inline?.slice('--token='.length).trim();
}
