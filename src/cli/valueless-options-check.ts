/**
 * An option that has a default, given with nothing after it (`--log-level` at the end of a line,
 * `--output $UNSET` in a script): yargs quietly takes the default for it, so `compact --output`
 * compacted ./output and `run … --log-level` ran at warn, with no word that the value was missing.
 * Numbers have their own check (number-options-check.ts); booleans need no value.
 */
import { UsageError } from './usage-error.js';

interface DeclaredOptions {
  readonly default?: Record<string, unknown>;
  readonly choices?: Record<string, readonly unknown[]>;
  readonly boolean?: readonly string[];
  readonly number?: readonly string[];
  readonly count?: readonly string[];
}

/** `--key` followed by nothing, or by another option: a plain negative number is a value. */
function givenBare(argv: readonly string[], key: string): boolean {
  const end = argv.indexOf('--');
  return argv.some((a, i) => {
    if (a !== `--${key}` || (end >= 0 && i > end)) return false;
    const next = argv[i + 1];
    return next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d+(\.\d+)?$/.test(next));
  });
}

/**
 * Options without a default whose empty text means "off" (`serve --faults ''` overrides the
 * environment's spec): given bare, yargs makes them that empty text, and the emulator served no
 * fault (or behaviour) with no word of the missing spec.
 */
const EMPTY_MEANS_OFF: Readonly<Record<string, string>> = { faults: 'QUOTELAKE_EMULATOR_FAULTS', behaviours: 'QUOTELAKE_EMULATOR_BEHAVIOURS' };

export function checkValuelessOptions(args: Record<string, unknown>, argv: readonly string[], options: DeclaredOptions | undefined): true {
  const skipped = new Set([...(options?.boolean ?? []), ...(options?.number ?? []), ...(options?.count ?? [])]);
  const command = (args._ as unknown[] | undefined)?.[0];
  const hint = `run "quotelake ${typeof command === 'string' ? command : '<command>'} --help" for what it takes`;
  for (const [key, value] of Object.entries(options?.default ?? {})) {
    // yargs keeps each dashed option under its camelCase name too: one message, by the dashed name.
    if (typeof value !== 'string' || skipped.has(key) || /[A-Z]/.test(key) || !givenBare(argv, key)) continue;
    const choices = (options?.choices?.[key] ?? []).map(String);
    const listed = choices.length > 1 ? `: ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : '';
    throw new UsageError(`--${key} needs a value${listed} (leave the option out for its default, ${JSON.stringify(value)})`, hint);
  }
  // `--s3-endpoint $UNSET` in a cron line: an empty endpoint fell back to the environment's, else AWS,
  // so a run meant for MinIO went to a bucket of that name on AWS (or failed for want of a region).
  if (args['s3-endpoint'] === '') {
    throw new UsageError('--s3-endpoint needs a value: http(s)://host[:port] (leave the option out for AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS itself)', hint);
  }
  for (const [key, env] of Object.entries(EMPTY_MEANS_OFF)) {
    if (args[key] !== '' || !givenBare(argv, key)) continue;
    throw new UsageError(`--${key} needs a value (a spec; --${key} '' switches it off, leave the option out for ${env})`, hint);
  }
  return true;
}
